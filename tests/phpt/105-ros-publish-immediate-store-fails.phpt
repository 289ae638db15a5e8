--TEST--
RequestOverStatic: a publish: 'immediate' property whose objects cannot be stored (a hook throws) warns once, not at every built-in call after; request end tries again, and a new value is offered again
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_immediate=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Live', '
final class Broken {
    public function __serialize(): array { throw new LogicException("no"); }
    public function __unserialize(array $data): void {}
}
final class Live { #[Resident\RequestOverStatic(publish: "immediate")] public static array $now = []; }');
request(function () use ($file) {
    require $file;
    Live::$now[] = new Broken();
    for ($i = 0; $i < 3; $i++) {
        echo str_repeat('.', 3), "\n";    // built-in calls: one publish attempt in all
    }
    Live::$now = ['kept'];
    echo str_repeat('-', 3), "\n";         // a new value: published
    Live::$now[] = new Broken();
    echo str_repeat('.', 3), "\n";
});
request(function () use ($file) {
    require $file;
    echo json_encode(Live::$now), "\n";
});
?>
--EXPECTF--
Warning: {closure%A}(): The static state of Live cannot be kept across requests: it could not be stored in %s on line 13
...
...
...
---

Warning: {closure%A}(): The static state of Live cannot be kept across requests: it could not be stored in %s on line 18
...

Fatal error: Uncaught LogicException: no in %s:4
Stack trace:
#0 [internal function]: Broken->__serialize()
#1 {main}
  thrown in %s on line 4
["kept"]
