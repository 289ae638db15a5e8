--TEST--
RequestOverStatic: members carrying the attribute are found in the classes that declare them, in classes using a trait whose method carries it, and not in other classes, also when a later request loads them from OPcache
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$files = [
    'Memo' => class_file('Memo', 'trait Memo { #[Resident\RequestOverStatic] public static function memo(): int { static $m = 0; return ++$m; } }'),
    'UsesMemo' => class_file('UsesMemo', 'final class UsesMemo { use Memo; }'),
    'Counter' => class_file('Counter', 'final class Counter { #[Resident\RequestOverStatic] public static int $n = 0; public static int $perRequest = 0; }'),
    'Plain' => class_file('Plain', 'final class Plain { public static int $n = 0; public static function calls(): int { static $c = 0; return ++$c; } }'),
];
spl_autoload_register(function (string $class) use ($files) {
    require $files[$class];
});
for ($r = 1; $r <= 3; $r++) {
    request(function () use ($r) {
        printf("request %d: trait %d, property %d, not kept %d, plain %d %d\n", $r, UsesMemo::memo(), ++Counter::$n, ++Counter::$perRequest,
            ++Plain::$n, Plain::calls());
    });
}
var_dump(ros_status()['snapshots']);
?>
--EXPECT--
request 1: trait 1, property 1, not kept 1, plain 1 1
request 2: trait 2, property 2, not kept 1, plain 1 1
request 3: trait 3, property 3, not kept 1, plain 1 1
int(2)
