--TEST--
RequestOverStatic: a static state refused for what it holds is not offered again while it stays the same, so the warning is given once; a changed state or class file is offered again
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
display_errors=1
html_errors=0
--FILE--
<?php
require __DIR__ . '/ros.inc';
$code = '#[Resident\RequestOverStatic] class Routes {
    public static array $handlers = [];
    public static function boot(int $n) { for ($i = 0; $i < $n; $i++) { self::$handlers["/r$i"] = fn () => 1; } }
}';
$file = class_file('Routes', $code);
for ($r = 1; $r <= 3; $r++) {
    request(function () use ($file, $r) {
        require $file;
        Routes::boot(2);
        echo "request $r: ", count(Routes::$handlers), " handlers\n";
    });
}
echo "-- another state\n";
request(function () use ($file) {
    require $file;
    Routes::boot(3);
});
request(function () use ($file) {
    require $file;
    Routes::boot(3);
    echo "the same again: no warning\n";
});
echo "-- the class file changed\n";
$file = class_file('Routes', $code . "\n// deployed\n");
request(function () use ($file) {
    require $file;
    Routes::boot(3);
});
echo "-- a state that can be kept replaces the refusal\n";
request(function () use ($file) {
    require $file;
    Routes::$handlers = ['/' => 'home'];
});
request(function () use ($file) {
    require $file;
    var_dump(Routes::$handlers);
    Routes::boot(3);
});
?>
--EXPECT--
request 1: 2 handlers

Warning: PHP Request Shutdown: The static state of Routes cannot be kept across requests: cannot be cached: Routes::$handlers['/r0'] is a Closure in Unknown on line 0
request 2: 2 handlers
request 3: 2 handlers
-- another state

Warning: PHP Request Shutdown: The static state of Routes cannot be kept across requests: cannot be cached: Routes::$handlers['/r0'] is a Closure in Unknown on line 0
the same again: no warning
-- the class file changed

Warning: PHP Request Shutdown: The static state of Routes cannot be kept across requests: cannot be cached: Routes::$handlers['/r0'] is a Closure in Unknown on line 0
-- a state that can be kept replaces the refusal
array(1) {
  ["/"]=>
  string(4) "home"
}

Warning: PHP Request Shutdown: The static state of Routes cannot be kept across requests: cannot be cached: Routes::$handlers['/r0'] is a Closure in Unknown on line 0
