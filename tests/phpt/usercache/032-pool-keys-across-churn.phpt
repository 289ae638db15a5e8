--TEST--
UserCache: a pool's keys and entry count stay exact across deletes, rewrites, a churn of more keys than a quarter of the index, an expired entry, another pool's writes, deletePool() of the other pool and clear() (the proposal's occupancy-bitmap test; this test sleeps 2 s)
--INI--
user_cache.enable_cli=1
user_cache.shm_size=16M
--FILE--
<?php
use UserCache\Cache;
$a = Cache::getPool('churn-a');
$b = Cache::getPool('churn-b');

function sorted_keys(Cache $pool): array
{
    $keys = $pool->getPoolStatus()->getEntryKeys();
    sort($keys);
    return $keys;
}

$live = [];
for ($i = 0; $i < 300; $i++) {
    $a->store("k$i", $i);
    $live["k$i"] = true;
}
for ($i = 0; $i < 40; $i++) {
    $b->store("b$i", $i);
}
for ($i = 0; $i < 300; $i += 3) {
    $a->delete("k$i");
    unset($live["k$i"]);
}
for ($i = 1; $i < 300; $i += 3) {
    $a->store("k$i", "rewritten $i");
}
$churn = intdiv(Cache::getStatus()->getEntryCapacity(), 4) + 64;
for ($i = 0; $i < $churn; $i++) {
    $a->store("churn$i", $i);
}
var_dump($a->getPoolStatus()->getEntryCount() === count($live) + $churn);
for ($i = 0; $i < $churn; $i++) {
    $a->delete("churn$i");
}

$a->store('short', 'x', 1);
sleep(2);
var_dump($a->fetch('short', 'expired'));
for ($i = 0; $i < 60; $i++) {
    $b->store("w$i", $i);
}

$expected = array_keys($live);
sort($expected);
var_dump(sorted_keys($a) === $expected, $a->getPoolStatus()->getEntryCount(), count(sorted_keys($b)));
var_dump($a->fetch('k1'), $a->fetch('k3', 'deleted'), $a->fetch('k299'));

var_dump(Cache::deletePool('churn-b'), sorted_keys(Cache::getPool('churn-b')), sorted_keys($a) === $expected);
var_dump($a->clear(), sorted_keys($a), Cache::getStatus()->getEntryCount());
var_dump($a->store('after', 1), sorted_keys($a));
?>
--EXPECT--
bool(true)
string(7) "expired"
bool(true)
int(200)
int(100)
string(11) "rewritten 1"
string(7) "deleted"
int(299)
bool(true)
array(0) {
}
bool(true)
bool(true)
array(0) {
}
int(0)
bool(true)
array(1) {
  [0]=>
  string(5) "after"
}
