--TEST--
UserCache: getPool() gives one object per name, equal only to itself; hasPool(), getPools(), deletePool(); pools isolate their keys; 1,000 pools in one request take one of Resident's pools
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;

var_dump(Cache::hasPool('a'), Cache::getPools());
$a = Cache::getPool('a');
$b = Cache::getPool('b');
var_dump($a === Cache::getPool('a'), $a === $b, $a == $b, $a == Cache::getPool('a'), in_array($b, [$a]), array_search($b, ['a' => $a, 'b' => $b], false));
var_dump(Cache::hasPool('a'), Cache::hasPool('c'));
$numeric = Cache::getPool('123');
$pools = Cache::getPools();
var_dump(array_keys($pools), $pools[123] === $numeric, $pools['a'] === $a);

echo "private constructor, no dynamic properties, no clone, no serialization:\n";
foreach ([fn () => new Cache(), fn () => $a->hook = 1, fn () => clone $a, fn () => serialize($a), fn () => unserialize('O:15:"UserCache\Cache":0:{}')] as $f) {
    try {
        $f();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

echo "the same key in two pools:\n";
var_dump($a->store('k', 'in a'), $b->store('k', 'in b'), $a->fetch('k'), $b->fetch('k'));
// A pool is a namespace of keys: no pool name or key can reach into another.
$ab = Cache::getPool('a-b');
var_dump($ab->fetch('k', 'MISS'), Cache::getPool('a')->fetch('k'));

echo "clear() clears its own pool only:\n";
var_dump($a->store('only-a', 1), $a->clear(), $a->has('k'), $a->has('only-a'), $b->fetch('k'));

echo "deletePool(): the values go, the registry forgets it, a live object goes on:\n";
var_dump($b->store('other', 2), Cache::deletePool('b'), Cache::hasPool('b'), $b->has('k'), $b->has('other'));
var_dump($b->store('again', 3), $b->fetch('again'), Cache::getPool('b') === $b, Cache::getPool('b')->fetch('again'));
var_dump(Cache::deletePool('never-made'));
$pools = Cache::getPools();
ksort($pools);
var_dump(array_keys($pools));

echo "1,000 pools, each with its own value:\n";
// (status() opens RequestOverStatic's pool the first time, after counting.)
Resident\Cache::status();
$before = Resident\Cache::status()['pools'];
for ($i = 0; $i < 1000; $i++) {
    Cache::getPool("p$i")->store('v', $i);
}
$ok = true;
for ($i = 0; $i < 1000; $i++) {
    $ok = $ok && Cache::getPool("p$i")->fetch('v') === $i && Cache::getPool("p$i")->getPoolStatus()->getEntryKeys() === ['v'];
}
var_dump($ok, count(Cache::getPools()), Resident\Cache::status()['pools'] - $before);
// Resident's own pools are not spent on them.
var_dump(Resident\Cache::pool('still-free')->store('k', 1));
?>
--EXPECT--
bool(false)
array(0) {
}
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
string(1) "b"
bool(true)
bool(false)
array(3) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
  [2]=>
  int(123)
}
bool(true)
bool(true)
private constructor, no dynamic properties, no clone, no serialization:
Error: Call to private UserCache\Cache::__construct() from global scope
Error: Cannot create dynamic property UserCache\Cache::$hook
Error: Trying to clone an uncloneable object of class UserCache\Cache
Exception: Serialization of 'UserCache\Cache' is not allowed
Exception: Unserialization of 'UserCache\Cache' is not allowed
the same key in two pools:
bool(true)
bool(true)
string(4) "in a"
string(4) "in b"
string(4) "MISS"
string(4) "in a"
clear() clears its own pool only:
bool(true)
bool(true)
bool(false)
bool(false)
string(4) "in b"
deletePool(): the values go, the registry forgets it, a live object goes on:
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
int(3)
bool(false)
int(3)
bool(true)
array(4) {
  [0]=>
  int(123)
  [1]=>
  string(1) "a"
  [2]=>
  string(3) "a-b"
  [3]=>
  string(1) "b"
}
1,000 pools, each with its own value:
bool(true)
int(1004)
int(0)
bool(true)
