--TEST--
Only a value larger than the whole cache makes store() return false, with a warning
--INI--
resident.enable_cli=1
resident.memory=2M
--FILE--
<?php
$c = Resident\Cache::pool();
$c->store('small', 'kept?');
var_dump($c->store('huge', str_repeat('x', 3 * 1024 * 1024)));
var_dump($c->exists('huge'), $c->fetch('small'));
var_dump($c->storeMultiple(['a' => 1, 'huge' => str_repeat('x', 3 * 1024 * 1024), 'b' => 2]));
var_dump($c->fetch('a'), $c->fetch('b'));
// Nearly the whole cache: everything else is evicted to make room.
$heap = Resident\Cache::status()['memory_heap'];
var_dump($c->store('almost', str_repeat('y', $heap - 64 * 1024)));
var_dump(strlen($c->fetch('almost')));
?>
--EXPECTF--
Warning: Resident\Cache::store(): Value for key "huge" needs %d bytes, more than the whole cache (%d bytes) in %s on line %d
bool(false)
bool(false)
string(5) "kept?"

Warning: Resident\Cache::storeMultiple(): Value for key "huge" needs %d bytes, more than the whole cache (%d bytes) in %s on line %d
array(1) {
  [0]=>
  string(4) "huge"
}
int(1)
int(2)
bool(true)
int(%d)
