--TEST--
Resident\Cache::keep(): built once and kept, every later call (here: forked workers) gets a fresh copy on which $reset ran; built again after a deploy (opcache_invalidate(), opcache_reset()) or, where OPcache stat()s files, when a file the build included changed; exceptions of $build and $reset reach the caller and store nothing; a value that cannot be cached throws the TypeError naming it
--EXTENSIONS--
pcntl
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
opcache.validate_timestamps=1
opcache.revalidate_freq=0
--FILE--
<?php
final class App
{
    public array $routes = [];
    public string $request = '';
    public int $served = 0;
    public function handle(string $path): string
    {
        $this->served++;
        return ($this->routes[$path])() . " (request $this->request, served $this->served)";
    }
}
$dir = sys_get_temp_dir() . '/resident-146-' . getmypid();
mkdir($dir);
$settings = "$dir/settings.php";
file_put_contents($settings, '<?php return ["greeting" => "Hello"];');
$bootstrap = "$dir/bootstrap.php";
file_put_contents($bootstrap, '<?php
$settings = require __DIR__ . "/settings.php";
$app = new App();
$app->routes["/"] = fn () => $settings["greeting"] . " world";
echo "  (built)\n";
return $app;');

$c = Resident\Cache::pool('kept');
$requests = 0;
$serve = function (string $who) use ($c, $bootstrap, &$requests) {
    $requests++;   // each worker is forked with the count so far
    $app = $c->keep('app', fn () => require $bootstrap, function (App $app) use ($requests) { $app->request = "#$requests"; });
    echo "$who: ", $app->handle('/'), "\n";
};
$worker = function (string $who) use ($serve) {
    global $requests;
    $requests++;
    $pid = pcntl_fork();
    if ($pid === 0) {
        $requests--;
        $serve($who);
        exit(0);
    }
    pcntl_waitpid($pid, $status);
};

$serve('first');
$worker('worker a');
$worker('worker b');
echo "-- a file the build included changed\n";
file_put_contents($settings, '<?php return ["greeting" => "Bonjour"];');
touch($settings, time() + 10);
$worker('worker a');
$worker('worker b');
echo "-- opcache_invalidate()\n";
var_dump(opcache_invalidate($settings, true));
$worker('worker a');
$worker('worker b');
echo "-- opcache_reset()\n";
var_dump(opcache_reset());
$worker('worker a');

echo "-- failures\n";
foreach ([
    'build throws' => fn () => $c->keep('other', function () { throw new RuntimeException('boot failed'); }),
    'reset throws' => fn () => $c->keep('other', fn () => new App(), function () { throw new LogicException('reset failed'); }),
    'not cacheable' => fn () => $c->keep('bad', fn () => ['log' => STDERR]),
    'a resource' => fn () => $c->keep('bad', fn () => STDERR),
    'in an object' => fn () => $c->keep('bad', function () { $a = new stdClass(); $a->log = STDERR; return $a; }),
    'empty key' => fn () => $c->keep('', fn () => 1),
] as $what => $call) {
    try {
        $call();
        echo "$what: returned\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($c->exists('bad'));
unlink($settings);
unlink($bootstrap);
rmdir($dir);
?>
--EXPECT--
  (built)
first: Hello world (request #1, served 1)
worker a: Hello world (request #2, served 1)
worker b: Hello world (request #3, served 1)
-- a file the build included changed
  (built)
worker a: Bonjour world (request #4, served 1)
worker b: Bonjour world (request #5, served 1)
-- opcache_invalidate()
bool(true)
  (built)
worker a: Bonjour world (request #6, served 1)
worker b: Bonjour world (request #7, served 1)
-- opcache_reset()
bool(true)
  (built)
worker a: Bonjour world (request #8, served 1)
-- failures
build throws: RuntimeException: boot failed
reset throws: LogicException: reset failed
not cacheable: TypeError: Resident\Cache::keep(): Argument #2 ($build) cannot be cached: $build()['log'] is a resource
a resource: TypeError: Resident\Cache::keep(): Argument #2 ($build) cannot be cached: $build() is a resource
in an object: TypeError: Resident\Cache::keep(): Argument #2 ($build) cannot be cached: $build()->log is a resource
empty key: ValueError: Resident\Cache::keep(): Argument #1 ($key) must not be empty
bool(false)
