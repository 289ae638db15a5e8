--TEST--
Every scalar, string and array shape round-trips exactly (copy mode)
--INI--
resident.enable_cli=1
resident.zero_copy=0
--FILE--
<?php
require __DIR__ . '/values.inc';
resident_test_round_trip(Resident\Cache::pool());
var_dump(Resident\Cache::status()['zero_copy']);
var_dump(Resident\Cache::pool()->fetch('mixed'));
?>
--EXPECT--
string(4) "copy"
array(5) {
  [10]=>
  string(3) "ten"
  ["k"]=>
  string(1) "v"
  [-3]=>
  string(3) "neg"
  ["07"]=>
  string(10) "string key"
  [8]=>
  string(7) "int key"
}
