--TEST--
keys(): an iterator over the live keys of a pool, by prefix, safe while others write
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('keys');
Resident\Cache::pool('other')->store('user:99', 'not mine');
foreach (['user:1', 'user:2', 'user:10', 'post:1', 'user', '7'] as $k) {
    $c->store($k, $k);
}
$c->store('expired', 1, 1);
$it = $c->keys('user:');
var_dump($it instanceof Iterator, $it instanceof Resident\KeyIterator);
$found = iterator_to_array($c->keys('user:'), false);
sort($found);
var_dump($found);
$all = iterator_to_array($c->keys(), false);
sort($all);
var_dump(count($all), in_array('7', $all, true));

// Keys are keys, values are positions.
foreach ($c->keys('post:') as $i => $k) {
    var_dump($i, $k);
}

// Writing while iterating: deleting the keys not yet reached, adding others.
usleep(1100000);
$seen = [];
foreach ($c->keys() as $k) {
    $seen[] = $k;
    foreach (['user:1', 'user:2', 'user:10', 'post:1', 'user', '7'] as $other) {
        if ($other !== $k) {
            $c->delete($other);
        }
    }
    $c->store("new:$k", 1);
}
var_dump(count($seen) >= 1, count($seen) === count(array_unique($seen)), in_array('expired', $seen, true));
var_dump(iterator_to_array(Resident\Cache::pool('empty')->keys()));

// A rewound iterator starts over; past its end, current() throws.
$it = $c->keys('new:');
$n = iterator_count($it);
$it->rewind();
var_dump($n === iterator_count($it), $it->valid());
try {
    $it->current();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
array(3) {
  [0]=>
  string(6) "user:1"
  [1]=>
  string(7) "user:10"
  [2]=>
  string(6) "user:2"
}
int(7)
bool(true)
int(0)
string(6) "post:1"
bool(true)
bool(true)
bool(false)
array(0) {
}
bool(true)
bool(false)
The iterator is past its last key
