--TEST--
RequestOverStatic off (resident.request_over_static=0): statics are per request; the attribute still compiles
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static=0
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Off', '#[Resident\RequestOverStatic] class Off { public static $n = 0; }');
request(function () use ($file) { require $file; echo Off::$n++, "\n"; });
request(function () use ($file) { require $file; echo Off::$n++, "\n"; });
var_dump(ros_status());
?>
--EXPECT--
0
0
array(8) {
  ["active"]=>
  bool(false)
  ["snapshots"]=>
  int(0)
  ["memory"]=>
  int(0)
  ["restores"]=>
  int(0)
  ["publishes"]=>
  int(0)
  ["restore_us_this_request"]=>
  int(0)
  ["shells_this_request"]=>
  int(0)
  ["shells_filled_this_request"]=>
  int(0)
}
