--TEST--
fetch() refuses a Fiber switch inside a hook it runs (__wakeup, __unserialize, an autoloader) with the engine's FiberError, and leaves no read section open (borrow mode)
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
final class Wakes { public int $n = 1; public function __wakeup(): void { Fiber::suspend('in __wakeup'); } }
final class Unserializes
{
    public function __serialize(): array { return ['n' => 1]; }
    public function __unserialize(array $data): void { Fiber::suspend('in __unserialize'); }
}
$c = Resident\Cache::pool('fiber');
var_dump($c->store('wakes', ['x' => new Wakes()]), $c->store('unserializes', new Unserializes()));

foreach (['wakes', 'unserializes'] as $key) {
    $fiber = new Fiber(function () use ($c, $key) {
        try {
            $c->fetch($key);
            echo "$key: fetched\n";
        } catch (FiberError $e) {
            echo "$key: ", get_class($e), ': ', $e->getMessage(), "\n";
        }
    });
    var_dump($fiber->start());
}
// An autoloader runs only in a process that lacks the class: another
// process stores, one without the class fetches, over a named segment.
$name = 'phpt-fiber-' . getmypid();
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
$php = fn (string $code) => shell_exec(sprintf('%s -n -d extension=%s -d resident.enable_cli=1 -d resident.zero_copy=%s -d resident.segment=%s -r %s 2>&1',
    escapeshellarg(PHP_BINARY), escapeshellarg($so), ini_get('resident.zero_copy'), $name, escapeshellarg($code)));
echo $php('final class LoadedLater { public int $n = 2; } var_dump(Resident\Cache::pool("fiber")->store("autoloads", [new LoadedLater()]));');
echo $php('spl_autoload_register(function (string $class) { Fiber::suspend("in the autoloader"); });
$fiber = new Fiber(function () {
    try {
        Resident\Cache::pool("fiber")->fetch("autoloads");
        echo "autoloads: fetched\n";
    } catch (FiberError $e) {
        echo "autoloads: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
});
var_dump($fiber->start());');
@unlink("/dev/shm/resident-$name");
?>
--EXPECT--
bool(true)
bool(true)
wakes: FiberError: Cannot switch fibers in current execution context
NULL
unserializes: FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
autoloads: FiberError: Cannot switch fibers in current execution context
NULL
