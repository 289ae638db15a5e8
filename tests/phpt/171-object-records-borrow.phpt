--TEST--
Object records (values and type bytes): every mix of property values, with and without a native state, properties left out at their defaults (packed, and past the mask's 64 with the others), typed and untyped, private, dynamic, references, enums, cycles, come back exactly (var_dump() and serialize()) in a borrowing request, eagerly and lazily; so does a record read by a class whose layout changed since the store
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
--FILE--
<?php
require __DIR__ . '/object-records.inc';
var_dump(Resident\Cache::status()['zero_copy']);
foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    echo "== $mode\n";
    ini_set('resident.lazy_objects', $setting);
    object_records_round_trip(Resident\Cache::pool("records-$mode"), $mode === 'eager' ? ['typed, all set'] : []);
}
echo "== layout changed\n";
object_records_layout_changed(Resident\Cache::pool('records-changed'), true);
?>
--EXPECT--
string(6) "borrow"
== eager
a shell: false
typed defaults: same
typed, all set: same
object(Typed)#N (11) {
  ["i"]=>
  int(-9223372036854775808)
  ["f"]=>
  float(-0)
  ["b"]=>
  bool(true)
  ["n"]=>
  string(8) "not null"
  ["s"]=>
  string(12) "héllo	world"
  ["a"]=>
  array(4) {
    [0]=>
    int(1)
    ["two"]=>
    float(2.5)
    [1]=>
    array(2) {
      [0]=>
      bool(true)
      [1]=>
      NULL
    }
    ["obj"]=>
    object(Typed)#N (10) {
      ["i"]=>
      int(0)
      ["f"]=>
      float(0)
      ["b"]=>
      bool(false)
      ["n"]=>
      NULL
      ["s"]=>
      string(0) ""
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
      NULL
      ["unset"]=>
      uninitialized(int)
    }
  }
  ["o"]=>
  object(Typed)#N (11) {
    ["i"]=>
    int(0)
    ["f"]=>
    float(INF)
    ["b"]=>
    bool(false)
    ["n"]=>
    NULL
    ["s"]=>
    string(0) ""
    ["a"]=>
    array(0) {
    }
    ["o"]=>
    NULL
    ["e"]=>
    NULL
    ["u"]=>
    string(3) "str"
    ["m"]=>
    NULL
    ["unset"]=>
    int(-1)
  }
  ["e"]=>
  enum(Suit::Spades)
  ["u"]=>
  int(9223372036854775807)
  ["m"]=>
  enum(Plain::Only)
  ["unset"]=>
  int(7)
}
typed, some left at defaults: same
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
== lazy
a shell: true
typed defaults: same
typed, all set: same
typed, some left at defaults: same
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
lazy, a shell: true
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
