--TEST--
RequestOverStatic: a changed class file or layout drops the snapshot; fatal errors, uncaught exceptions and timeouts publish nothing; forgetStatics()
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
display_errors=0
log_errors=0
--FILE--
<?php
require __DIR__ . '/ros.inc';
$code = '#[Resident\RequestOverStatic] class Counter { public static int $n = 0; }';
$file = class_file('Counter', $code);
$bump = function (string $then = '') use ($file) {
    return function () use ($file, $then) {
        require $file;
        echo Counter::$n++, "\n";
        match ($then) {
            'fatal' => undefined_function(),
            'exception' => throw new RuntimeException('boom'),
            'timeout' => (function () { set_time_limit(1); while (true); })(),
            'exit' => exit(3),
            '' => null,
        };
    };
};
request($bump());
request($bump());
echo "fatal error, uncaught exception, timeout: nothing published\n";
request($bump('fatal'));
request($bump('exception'));
request($bump('timeout'));
request($bump());
echo "exit() ends the request normally\n";
request($bump('exit'));
request($bump());

echo "the class file changes (size, mtime): dropped\n";
file_put_contents($file, "<?php\n$code // edited\n");
request($bump());
request($bump());

echo "same file identity, different layout (eval'd code has no file): dropped\n";
// One eval site, so that every version has the same file name.
$evald = fn (string $code, callable $then) => function () use ($code, $then) { eval($code); $then(); };
$a = fn () => print(Evald::$a++ . "\n");
request($evald('#[Resident\RequestOverStatic] class Evald { public static $a = 0; }', $a));
request($evald('#[Resident\RequestOverStatic] class Evald { public static $a = 0; }', $a));
request($evald('#[Resident\RequestOverStatic] class Evald { public static $b = 0; public static $a = 0; }', $a));
echo "a declared type the stored value no longer fits: dropped\n";
request($evald('#[Resident\RequestOverStatic] class Typed { public static $v = "text"; }', function () { echo Typed::$v, "\n"; Typed::$v = 'kept'; }));
request($evald('#[Resident\RequestOverStatic] class Typed { public static $v = "text"; }', function () { echo Typed::$v, "\n"; }));
request($evald('#[Resident\RequestOverStatic] class Typed { public static int $v = 0; }', function () { var_dump(Typed::$v); }));

echo "forgetStatics()\n";
var_dump(Resident\Cache::forgetStatics('counter'), Resident\Cache::forgetStatics('Counter'));
request($bump());
var_dump(Resident\Cache::forgetStatics('\Counter'));
request($bump());
request($bump());
var_dump(ros_status()['snapshots'] > 0, Resident\Cache::forgetStatics() >= 1, ros_status()['snapshots']);
request($bump());
try {
    Resident\Cache::forgetStatics('');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
0
1
fatal error, uncaught exception, timeout: nothing published
2
2
2
2
exit() ends the request normally
3
4
the class file changes (size, mtime): dropped
0
1
same file identity, different layout (eval'd code has no file): dropped
0
1
0
a declared type the stored value no longer fits: dropped
text
kept
int(0)
forgetStatics()
int(1)
int(0)
0
int(1)
0
1
bool(true)
bool(true)
int(0)
0
Resident\Cache::forgetStatics(): Argument #1 ($class) must be a class name or null
