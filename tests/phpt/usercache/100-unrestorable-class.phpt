--TEST--
UserCache: a value holding an object of a class that cannot be instantiated (abstract here, concrete where it was stored), or one whose gone class makes another's restore fail (a DatePeriod's start), is a miss and its entry goes; Resident\Cache still throws as unserialize() does
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
date.timezone=UTC
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('unrestorable');

spl_autoload_register(function (string $class) {
    echo "autoload $class\n";
    if (str_starts_with($class, 'Abstract')) {
        eval("abstract class $class extends DateTimeImmutable {}");
    }
});

// The child declares every class concretely; this process sees two of them
// as abstract and one not at all.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class AbstractStart extends DateTimeImmutable {}');
    eval('class AbstractTop extends DateTimeImmutable {}');
    eval('class GoneStart extends DateTimeImmutable {}');
    $ok = $c->store('abstract-start', new DatePeriod(new AbstractStart('2026-01-01'), new DateInterval('P1D'), 1))
        && $c->store('abstract-top', ['in' => [new AbstractTop('2026-01-01')]])
        && $c->store('gone-start', new DatePeriod(new GoneStart('2026-01-01'), new DateInterval('P1D'), 1))
        && $c->store('plain-start', new DatePeriod(new DateTimeImmutable('2026-01-01'), new DateInterval('P1D'), 1))
        && Resident\Cache::pool('unrestorable')->store('abstract-top', new AbstractTop('2026-01-01'));
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

var_dump($c->fetch('abstract-start', 'miss'), $c->has('abstract-start'));
var_dump($c->fetchMultiple(['abstract-top', 'gone-start'], 'miss'), $c->has('abstract-top'), $c->has('gone-start'));
var_dump($c->fetch('plain-start')->getStartDate()->format('Y-m-d'), $c->has('plain-start'));

try {
    Resident\Cache::pool('unrestorable')->fetch('abstract-top');
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
int(0)
autoload AbstractStart
string(4) "miss"
bool(false)
autoload AbstractTop
autoload GoneStart
array(2) {
  ["abstract-top"]=>
  string(4) "miss"
  ["gone-start"]=>
  string(4) "miss"
}
bool(false)
bool(false)
string(10) "2026-01-01"
bool(true)
Error: Cannot instantiate abstract class AbstractTop
