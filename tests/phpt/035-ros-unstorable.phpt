--TEST--
RequestOverStatic: a static that cannot be stored gives a warning naming it, and the previous snapshot stays
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
display_errors=1
html_errors=0
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Handlers', '#[Resident\RequestOverStatic] class Handlers {
    public static array $list = [];
    public static function memo($v = null) { static $memo = []; if ($v) $memo[] = $v; return $memo; }
}');
request(function () use ($file) { require $file; Handlers::$list[] = 'kept'; Handlers::memo('kept'); });
request(function () use ($file) { require $file; Handlers::$list[] = fn () => 1; });
request(function () use ($file) { require $file; Handlers::memo(fopen('php://memory', 'r')); });
request(function () use ($file) { require $file; var_dump(Handlers::$list, Handlers::memo()); });
?>
--EXPECT--
Warning: PHP Request Shutdown: The static state of Handlers cannot be kept across requests: cannot be cached: Handlers::$list[1] is a Closure in Unknown on line 0

Warning: PHP Request Shutdown: The static state of Handlers cannot be kept across requests: cannot be cached: static $memo in Handlers::memo()[1] is a resource in Unknown on line 0
array(1) {
  [0]=>
  string(4) "kept"
}
array(1) {
  [0]=>
  string(4) "kept"
}
