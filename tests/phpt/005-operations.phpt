--TEST--
add, exists, delete, deleteMultiple, storeMultiple, fetchMultiple, clear
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('ops');
var_dump($c->fetch('nope'), $c->fetch('nope', 'fallback'));
$default = new stdClass;
var_dump($c->fetch('nope', $default) === $default);

var_dump($c->add('a', 1), $c->add('a', 2), $c->fetch('a'));
var_dump($c->exists('a'), $c->exists('b'));
var_dump($c->delete('a'), $c->delete('a'), $c->exists('a'));

var_dump($c->storeMultiple(['x' => 1, 'y' => [2], 7 => 'seven']));
var_dump($c->fetchMultiple(['x', 'y', 'missing', 7, '7']));
var_dump($c->deleteMultiple(['x', 'missing', 7]));
var_dump($c->fetchMultiple(['x', 'y', 7]));

$c->store('p', 1);
$c->store('q', 2);
var_dump($c->clear(), $c->exists('p'), $c->info()['entries']);

// Replacing a key keeps exactly one entry.
for ($i = 0; $i < 100; $i++) {
    $c->store('same', $i);
}
var_dump($c->fetch('same'), $c->info()['entries']);
?>
--EXPECT--
NULL
string(8) "fallback"
bool(true)
bool(true)
bool(false)
int(1)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
array(0) {
}
array(3) {
  ["x"]=>
  int(1)
  ["y"]=>
  array(1) {
    [0]=>
    int(2)
  }
  [7]=>
  string(5) "seven"
}
int(2)
array(1) {
  ["y"]=>
  array(1) {
    [0]=>
    int(2)
  }
}
bool(true)
bool(false)
int(0)
int(99)
int(1)
