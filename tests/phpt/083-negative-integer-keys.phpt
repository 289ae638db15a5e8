--TEST--
Integer keys of storeMultiple(), fetchMultiple() and deleteMultiple() (and of OPcache\cache_*() and UserCache\Cache) are the keys PHP prints for them: -1 is "-1" wherever it is stored, fetched or deleted
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('int-keys');

echo "storeMultiple() then fetch() by the string:\n";
var_dump($c->storeMultiple([-1 => 'minus one', PHP_INT_MIN => 'min', 0 => 'zero', '007' => 'string 007', 7 => 'seven', PHP_INT_MAX => 'max']));
foreach (['-1', (string)PHP_INT_MIN, '0', '007', '7', (string)PHP_INT_MAX] as $key) {
    echo "  fetch('$key'): ", var_export($c->fetch($key, 'MISS'), true), "\n";
}
var_dump($c->exists('18446744073709551615'));

echo "fetchMultiple(), keyed back as PHP keys an array:\n";
var_dump($c->fetchMultiple([-1, '-1', PHP_INT_MIN, 0, '0', '007', 7, 'missing']));

echo "store() by the string, then the multiple forms by the integer:\n";
$c->store('-2', 'stored as a string');
var_dump($c->fetchMultiple([-2]));
var_dump($c->deleteMultiple([-1, PHP_INT_MIN, -2]));
foreach (['-1', (string)PHP_INT_MIN, '-2', '0', '007'] as $key) {
    echo "  exists('$key'): ", var_export($c->exists($key), true), "\n";
}

echo "OPcache\\cache_*():\n";
var_dump(OPcache\cache_store_array([-5 => 'five below', '-6' => 'six below']));
var_dump(OPcache\cache_fetch('-5'), OPcache\cache_fetch('-6'), Resident\Cache::pool()->fetchMultiple([-5, -6]));
var_dump(OPcache\cache_delete_array([-5, '-6']), OPcache\cache_fetch('-5', 'MISS'));

echo "UserCache\\Cache:\n";
$u = UserCache\Cache::getPool('int-keys-user');
var_dump($u->storeMultiple([-9 => 'nine below', PHP_INT_MIN => 'min']));
var_dump($u->fetch('-9'), $u->fetchMultiple([-9, PHP_INT_MIN, '-9']));
var_dump($u->delete('-9'), $u->fetchMultiple([-9]));
?>
--EXPECT--
storeMultiple() then fetch() by the string:
array(0) {
}
  fetch('-1'): 'minus one'
  fetch('-9223372036854775808'): 'min'
  fetch('0'): 'zero'
  fetch('007'): 'string 007'
  fetch('7'): 'seven'
  fetch('9223372036854775807'): 'max'
bool(false)
fetchMultiple(), keyed back as PHP keys an array:
array(5) {
  [-1]=>
  string(9) "minus one"
  [-9223372036854775808]=>
  string(3) "min"
  [0]=>
  string(4) "zero"
  ["007"]=>
  string(10) "string 007"
  [7]=>
  string(5) "seven"
}
store() by the string, then the multiple forms by the integer:
array(1) {
  [-2]=>
  string(18) "stored as a string"
}
int(3)
  exists('-1'): false
  exists('-9223372036854775808'): false
  exists('-2'): false
  exists('0'): true
  exists('007'): true
OPcache\cache_*():
array(0) {
}
string(10) "five below"
string(9) "six below"
array(2) {
  [-5]=>
  string(10) "five below"
  [-6]=>
  string(9) "six below"
}
int(2)
string(4) "MISS"
UserCache\Cache:
bool(true)
string(10) "nine below"
array(2) {
  [-9]=>
  string(10) "nine below"
  [-9223372036854775808]=>
  string(3) "min"
}
bool(true)
array(1) {
  [-9]=>
  NULL
}
