--TEST--
RequestOverStatic: publish: 'immediate' publishes nothing once the request failed: a write after the last built-in call is not published by the engine reporting the uncaught error, nor by the shutdown functions that still run
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_immediate=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Live', 'final class Live { #[Resident\RequestOverStatic(publish: "immediate")] public static array $now = []; }');
request(function () use ($file) {
    require $file;
    register_shutdown_function(function () {
        file_exists(__FILE__);
        echo "the shutdown function ran\n";
    });
    Live::$now[] = 'published';
    str_repeat('x', 2);        // a built-in call: published before it
    Live::$now[] = 'half-done';
    undefined_function();      // no built-in call between: the Error is the engine's
});
request(function () use ($file) {
    require $file;
    echo json_encode(Live::$now), "\n";
});
?>
--EXPECTF--
Fatal error: Uncaught Error: Call to undefined function undefined_function() in %s:%d
Stack trace:
#0 %s(%d): {closure%A}()
#1 %s(%d): request(Object(Closure))
#2 {main}
  thrown in %s on line %d
the shutdown function ran
["published"]
