--TEST--
UserCache: a date object stored as its C state whose class, where it is read, has its own __serialize()/__unserialize() (or Serializable), or is no longer of the stored family, is a miss and its entry goes (no hook runs, no state is written into a foreign object); an unchanged subclass and a class in resident.direct_classes are restored; Resident\Cache throws the Error
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
date.timezone=UTC
resident.direct_classes=DirectDate
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('date-class-changed');

$pid = pcntl_fork();
if ($pid === 0) {
    eval('class GainsBothDate extends DateTimeImmutable {}
          class GainsUnserializeZone extends DateTimeZone {}
          class GainsSerializableInterval extends DateInterval {}
          class NoLongerDate extends DateTime {}
          class NowDateInterval extends DateInterval {}
          class UnchangedDate extends DateTimeImmutable { public $label = "kept"; }
          class DirectDate extends DateTimeImmutable {}');
    $ok = $c->store('gains-both', new GainsBothDate('2020-01-02 03:04:05'))
        && $c->store('native-gains-both', serialize(new GainsBothDate('2020-01-02 03:04:05')))
        && $c->store('gains-unserialize', ['zone' => new GainsUnserializeZone('Europe/Paris')])
        && $c->store('gains-serializable', new GainsSerializableInterval('P1D'))
        && $c->store('no-longer-date', new NoLongerDate('2020-01-02 03:04:05'))
        && $c->store('now-date', [new NowDateInterval('P2D'), 'tail'])
        && $c->store('unchanged', new UnchangedDate('2020-01-02 03:04:05'))
        && $c->store('direct', new DirectDate('2020-01-02 03:04:05'))
        && Resident\Cache::pool('date-class-changed')->store('gains-both', new GainsBothDate('2020-01-02 03:04:05'))
        && Resident\Cache::pool('date-class-changed')->store('now-date', new NowDateInterval('P2D'));
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

$log = [];
eval('class GainsBothDate extends DateTimeImmutable {
          public function __serialize(): array { $GLOBALS["log"][] = "serialize"; return []; }
          public function __unserialize(array $data): void { $GLOBALS["log"][] = "unserialize " . implode(",", array_keys($data)); }
      }
      class GainsUnserializeZone extends DateTimeZone {
          public function __unserialize(array $data): void { $GLOBALS["log"][] = "zone unserialize"; }
      }
      class GainsSerializableInterval extends DateInterval implements Serializable {
          public function serialize(): string { return ""; }
          public function unserialize(string $data): void { $GLOBALS["log"][] = "interval unserialize"; }
      }
      class NoLongerDate { public $x = 1; }
      class NowDateInterval extends DateTimeImmutable {}
      class UnchangedDate extends DateTimeImmutable { public $label = "default"; }
      class DirectDate extends DateTimeImmutable {
          public function __unserialize(array $data): void { $GLOBALS["log"][] = "direct unserialize"; }
      }');

// unserialize() gives the gained hook the stored state; a copy of the C state cannot.
unserialize($c->fetch('native-gains-both'));
var_dump($log);
$log = [];

foreach (['gains-both', 'gains-unserialize', 'gains-serializable', 'no-longer-date', 'now-date'] as $key) {
    echo $key, ': ';
    var_dump($c->fetch($key, 'miss'), $c->has($key));
}
var_dump($c->fetchMultiple(['unchanged', 'direct'], 'miss'));
var_dump($log);

foreach (['gains-both', 'now-date'] as $key) {
    try {
        Resident\Cache::pool('date-class-changed')->fetch($key);
    } catch (Error $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECTF--
int(0)
array(1) {
  [0]=>
  string(39) "unserialize date,timezone_type,timezone"
}
gains-both: string(4) "miss"
bool(false)
gains-unserialize: string(4) "miss"
bool(false)
gains-serializable: string(4) "miss"
bool(false)
no-longer-date: string(4) "miss"
bool(false)
now-date: string(4) "miss"
bool(false)
array(2) {
  ["unchanged"]=>
  object(UnchangedDate)#%d (4) {
    ["label"]=>
    string(4) "kept"
    ["date"]=>
    string(26) "2020-01-02 03:04:05.000000"
    ["timezone_type"]=>
    int(3)
    ["timezone"]=>
    string(3) "UTC"
  }
  ["direct"]=>
  object(DirectDate)#%d (3) {
    ["date"]=>
    string(26) "2020-01-02 03:04:05.000000"
    ["timezone_type"]=>
    int(3)
    ["timezone"]=>
    string(3) "UTC"
  }
}
array(0) {
}
Error: Cannot restore a cached GainsBothDate: the class has its own __serialize(), __unserialize() or Serializable since the value was stored
Error: Cannot restore a cached NowDateInterval: the class is no longer a DateInterval, as it was when the value was stored
