--TEST--
Object records (values and type bytes): every mix of property values of tests/phpt/171 comes back exactly (var_dump() and serialize()) in a request that copies, strings and arrays copied out of the segment; so does a record read by a class whose layout changed since the store
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=0
resident.testing=1
--FILE--
<?php
require __DIR__ . '/object-records.inc';
var_dump(Resident\Cache::status()['zero_copy']);
object_records_round_trip(Resident\Cache::pool('records'), ['typed, some left at defaults']);
echo "== layout changed\n";
object_records_layout_changed(Resident\Cache::pool('records-changed'), false);
?>
--EXPECT--
string(4) "copy"
a shell: false
typed defaults: same
typed, all set: same
typed, some left at defaults: same
object(Typed)#N (10) {
  ["i"]=>
  int(0)
  ["f"]=>
  float(NAN)
  ["b"]=>
  bool(false)
  ["n"]=>
  NULL
  ["s"]=>
  string(9) "only some"
  ["a"]=>
  array(0) {
  }
  ["o"]=>
  NULL
  ["e"]=>
  NULL
  ["u"]=>
  int(0)
  ["m"]=>
  array(3) {
    [0]=>
    int(1)
    [1]=>
    int(2)
    [2]=>
    int(3)
  }
  ["unset"]=>
  uninitialized(int)
}
untyped, references, cycle: same
visibility: same
visibility defaults: same
dynamic: same
stdClass: same
native state and properties left out: same
native state, properties at defaults: same
hook data: same
wide, some left at defaults: same
through the reference: written written, stored: shared
cycle: true, same object: true
== layout changed
stored by the child: 0
eager, a shell: false
object(Pair)#N (2) {
  ["first"]=>
  object(Changing)#N (6) {
    ["list"]=>
    array(0) {
    }
    ["widened"]=>
    float(20)
    ["added"]=>
    string(5) "added"
    ["hidden"]=>
    string(1) "h"
    ["kept"]=>
    int(10)
    ["gone"]=>
    string(4) "gone"
  }
  ["second"]=>
  object(Changing)#N (6) {
    ["list"]=>
    array(0) {
    }
    ["widened"]=>
    float(2)
    ["added"]=>
    string(5) "added"
    ["hidden"]=>
    NULL
    ["kept"]=>
    int(1)
    ["gone"]=>
    string(4) "gone"
  }
}
