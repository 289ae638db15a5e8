--TEST--
UserCache: getPoolStatus() counts and lists expired entries until they are reclaimed, as getStatus()->getEntryCount() counts them (the proposal's ttl-counted test); Resident\Cache::keys() still leaves them out (this test sleeps 1.2 s)
--INI--
user_cache.enable_cli=1
user_cache.shm_size=1M
user_cache.entries_hint=127
user_cache.eviction_policy=none
--FILE--
<?php
use UserCache\Cache;

$pool = Cache::getPool('expiring-counted');
$base = Cache::getStatus()->getEntryCount();
// The pool's status first: getStatus() takes the store's write lock, and
// the end of every write-lock section reclaims expired entries.
function report(Cache $pool, int $base): int
{
    $status = $pool->getPoolStatus();
    $segment = Cache::getStatus()->getEntryCount() - $base;
    $keys = $status->getEntryKeys();
    sort($keys);
    echo "segment $segment, pool ", $status->getEntryCount(), ': ', implode(' ', $keys), "\n";
    return $status->getUsedMemory();
}

var_dump($pool->store('soon-a', 1, 1), $pool->store('soon-b', 'b', 1), $pool->store('lasting', 0));
$before = report($pool, $base);

usleep(1200000);
echo "expired, read, not yet reclaimed:\n";
var_dump($pool->has('soon-a'), $pool->fetch('soon-b', 'miss'));
$expired = report($pool, $base);
var_dump($expired === $before);

echo "reclaimed by the writes that follow:\n";
for ($i = 0; $i < 128; $i++) {
    $pool->store('lasting', $i);
}
$after = report($pool, $base);
var_dump($after < $before);

echo "Resident\\Cache:\n";
$own = Resident\Cache::pool('own');
$own->store('soon', 1, ttl: 1);
$own->store('lasting', 2);
usleep(1200000);
var_dump($own->info()['entries'], iterator_to_array($own->keys(), false));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
segment 3, pool 3: lasting soon-a soon-b
expired, read, not yet reclaimed:
bool(false)
string(4) "miss"
segment 3, pool 3: lasting soon-a soon-b
bool(true)
reclaimed by the writes that follow:
segment 1, pool 1: lasting
bool(true)
Resident\Cache:
int(2)
array(1) {
  [0]=>
  string(7) "lasting"
}
