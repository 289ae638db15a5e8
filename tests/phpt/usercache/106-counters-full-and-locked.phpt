--TEST--
UserCache: counters with a TTL, of an entry that expires, and of a key this request locked keep their range and type errors; on a full segment without eviction a new counter is null (a refused store) while existing ones still update, nothing is evicted, and a value rewritten 200 times while read stays exact; a lease left by a dead process expires and its key locks again on a full segment
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
user_cache.shm_size=2M
user_cache.eviction_policy=none
--FILE--
<?php
use UserCache\Cache;

$try = function (callable $f): string {
    try {
        return var_export($f(), true);
    } catch (Error $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
};
$c = Cache::getPool('counters');
echo $try(fn () => $c->increment('t', 5, 60)), ' ', $try(fn () => $c->decrement('t', 7, 60)), ' ', $try(fn () => $c->decrement('new', 4, 60)), "\n";
$c->store('max', PHP_INT_MAX - 1, 60);
echo $try(fn () => $c->increment('max')), "\n", $try(fn () => $c->increment('max')), "\n";
$c->store('text', 'text', 60);
echo $try(fn () => $c->decrement('text')), "\n";
$c->store('held', 10);
var_dump($c->lock('held'));
echo $try(fn () => $c->decrement('held', 20)), ' ', $try(fn () => $c->increment('held', PHP_INT_MAX)), "\n";
echo $try(fn () => $c->increment('held', 11)), "\n";
var_dump($c->unlock('held'), $c->fetch('held') === PHP_INT_MAX - 10);

echo "full:\n";
$c->store('counter', 10);
$n = 0;
foreach ([4000, 1000, 200, 40, 8, 1] as $size) {
    while ($c->store('fill' . $n++, str_repeat('x', $size)));
}
$failures = Cache::getStatus()->getStoreFailureCount();
var_dump($c->increment('missing'), $c->has('missing'), Cache::getStatus()->getStoreFailureCount() > $failures);
var_dump($c->increment('counter', 5), $c->decrement('counter', 20), $c->fetch('fill0') === str_repeat('x', 4000));
var_dump(Cache::getStatus()->getEvictionCount(), Cache::getStatus()->getExpungeCount());
$c->clear();
$v = range(1, 8000);
$wrong = 0;
for ($i = 0; $i < 200; $i++) {
    $v[0] = $i;
    $wrong += !$c->store('hot', $v);
    $got = $c->fetch('hot');
    $wrong += $got[0] !== $i || $c->fetch('hot') !== $got;
}
var_dump($wrong);

echo "a dead process's lease:\n";
$c->clear();
if (($pid = pcntl_fork()) === 0) {
    exit($c->lock('leased', 1) ? 0 : 1);
}
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st), $c->lock('leased'));
$n = 0;
foreach ([4000, 1000, 200, 40, 8] as $size) {
    while ($c->store('fill' . $n++, str_repeat('x', $size)));
}
sleep(2);
var_dump($c->lock('leased'), $c->unlock('leased'));
?>
--EXPECT--
5 -2 -4
9223372036854775807
ArithmeticError: Increment of user cache key "max" would exceed the range of a PHP integer
ValueError: Decrement of user cache key "text" requires the stored value to be an integer
bool(true)
-10 9223372036854775797
ArithmeticError: Increment of user cache key "held" would exceed the range of a PHP integer
bool(true)
bool(true)
full:
NULL
bool(false)
bool(true)
int(15)
int(-5)
bool(true)
int(0)
int(0)
int(0)
a dead process's lease:
int(0)
bool(false)
bool(true)
bool(true)
