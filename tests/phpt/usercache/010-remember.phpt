--TEST--
UserCache: remember() calls $callback($key) on a miss, stores and returns its result; a throwing or unstorable result stores nothing and leaves no lock; a lock the caller holds is kept; two processes compute once
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('remember');
$calls = 0;
$compute = function (string $key) use (&$calls) {
    $calls++;
    return "computed:$key";
};
var_dump($c->remember('k', $compute), $c->remember('k', $compute), $c->fetch('k'), $calls);

echo "a by-reference result is stored as a plain value:\n";
$g = 42;
$byRef = function &(string $key) use (&$g) { return $g; };
$r = [$c->remember('by-ref', $byRef)];
$g = 99;
var_dump($r, $c->fetch('by-ref'));

echo "failures leave no entry and no lock:\n";
foreach (['boom' => function () { throw new RuntimeException('from the callback'); },
          'closure' => fn () => fn () => 1,
          'resource' => fn () => fopen('php://memory', 'r'),
          'nested' => fn () => ['inner' => fopen('php://memory', 'r')]] as $key => $callback) {
    try {
        $c->remember($key, $callback);
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    var_dump($c->has($key), $c->lock($key), $c->unlock($key));
}

echo "a lock the caller holds stays the caller's:\n";
var_dump($c->lock('held'), $c->remember('held', fn () => 'value'), $c->unlock('held'));
var_dump($c->remember('own', fn () => 'own'), $c->unlock('own'));

echo "a TTL:\n";
var_dump($c->remember('ttl', fn () => 'first', 1));
sleep(2);
var_dump($c->remember('ttl', fn () => 'second', 1));

echo "a restore hook that throws propagates, and the entry stays:\n";
class WakeupThrows
{
    public static bool $fail = false;
    public function __wakeup(): void { if (self::$fail) { throw new RuntimeException('wakeup failed'); } }
}
$c->store('wakes', new WakeupThrows());
WakeupThrows::$fail = true;
foreach (['fetch' => fn () => $c->fetch('wakes', 'D'), 'remember' => fn () => $c->remember('wakes', fn () => 'computed'),
          'fetchMultiple' => fn () => $c->fetchMultiple(['wakes'], 'D')] as $label => $f) {
    try {
        $f();
        echo "$label: no exception\n";
    } catch (RuntimeException $e) {
        echo "$label: ", $e->getMessage(), "\n";
    }
    var_dump($c->has('wakes'));
}
WakeupThrows::$fail = false;
var_dump($c->fetch('wakes') instanceof WakeupThrows);

echo "two processes, one computation:\n";
$c->store('calls', 0);
[$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
if (($pid = pcntl_fork()) === 0) {
    fclose($parent);
    $value = $c->remember('shared', function () use ($c, $peer) {
        $c->increment('calls');
        fwrite($peer, 'C');
        fread($peer, 1);
        usleep(300000);
        return 'first';
    });
    exit($value === 'first' ? 0 : 1);
}
fclose($peer);
fread($parent, 1);
fwrite($parent, 'G');
var_dump($c->remember('shared', function () use ($c) {
    $c->increment('calls');
    return 'second';
}));
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status), $c->fetch('calls'));
?>
--EXPECT--
string(10) "computed:k"
string(10) "computed:k"
string(10) "computed:k"
int(1)
a by-reference result is stored as a plain value:
array(1) {
  [0]=>
  int(42)
}
int(42)
failures leave no entry and no lock:
RuntimeException: from the callback
bool(false)
bool(true)
bool(true)
TypeError: Closure objects cannot be stored in the user cache
bool(false)
bool(true)
bool(true)
TypeError: Resources cannot be stored in the user cache
bool(false)
bool(true)
bool(true)
TypeError: Resources cannot be stored in the user cache
bool(false)
bool(true)
bool(true)
a lock the caller holds stays the caller's:
bool(true)
string(5) "value"
bool(true)
string(3) "own"
bool(false)
a TTL:
string(5) "first"
string(6) "second"
a restore hook that throws propagates, and the entry stays:
fetch: wakeup failed
bool(true)
remember: wakeup failed
bool(true)
fetchMultiple: wakeup failed
bool(true)
bool(true)
two processes, one computation:
string(5) "first"
int(0)
int(1)
