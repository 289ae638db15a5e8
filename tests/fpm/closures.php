<?php
/*
 * Closures kept in the cache under php-fpm, as a kept app holds them: two
 * workers, OPcache as in production (validate_timestamps=0, JIT). The
 * worker that reads never loaded the file that declares them; the app's
 * class, autoloaded when the app is restored, declares an anonymous class
 * that one of its objects is an instance of. Called by
 * run.php: returns the tests as name => fn(Fpm, string $dir): [bool, detail].
 */

function closures_app(string $dir): void
{
    file_put_contents("$dir/App.php", '<?php
final class App
{
    public array $routes = [];
    public ?Closure $middleware = null;
    public ?object $handler = null;
    public int $hits = 0;
    public function __construct(public string $greeting) {}
    public function boot(): void
    {
        $this->middleware = function () { return "$this->greeting from " . static::class; };
        $this->handler = new class ($this) {
            public function __construct(private App $app) {}
            public function handle(string $x): string { return strtoupper($this->app->greeting) . " $x"; }
        };
    }
}
');
    file_put_contents("$dir/routes.php", '<?php
$app = new App("Hello");
$app->boot();
$suffix = "!";
$app->routes["/"] = function (string $who) use ($app, $suffix) { $app->hits++; return "$app->greeting, $who$suffix"; };
$app->routes["/nested"] = fn (int $a) => fn (int $b) => $a * 10 + $b;
$app->routes["/count"] = function () { static $n = 0; return ++$n; };
return $app;
');
}

function closures_call(Fpm $fpm, string $dir, string $query): array
{
    return statics_call($fpm, $dir, $query, 'closures.php');
}

/* One worker: OPcache restarts between two of its requests. */
function closures_restart_test(Fpm $fpm, string $dir, array $served): array
{
    closures_app($dir);
    [$stored] = closures_call($fpm, $dir, 'op=build');
    [$before] = closures_call($fpm, $dir, 'op=run');
    // New versions of scripts waste OPcache's memory, more scripts fill its
    // table: a restart is due, and happens when the next request starts;
    // that request then compiles other scripts first, into the memory the
    // kept closures' code was in.
    closures_call($fpm, $dir, 'op=flood&tag=a&n=100');
    closures_call($fpm, $dir, 'op=flood&tag=a&n=100&rewrite=1');
    [$restarts] = closures_call($fpm, $dir, 'op=flood&tag=b&n=300');
    [$after_restart] = closures_call($fpm, $dir, 'op=flood&tag=c&n=50');
    [$after] = closures_call($fpm, $dir, 'op=run');
    [$rebuilt] = closures_call($fpm, $dir, 'op=build');
    [$again] = closures_call($fpm, $dir, 'op=run');
    return [$stored === true && $before === $served && $restarts === 0 && $after_restart >= 1
        && $after === ['miss' => null, 'kept' => false] && $rebuilt === true && $again === $served,
        json_encode([$stored, $before, $restarts, $after_restart, $after, $rebuilt, $again])];
}

$served = ['hello' => 'Hello, world!', 'nested' => 42, 'bound' => 'Hello from App', 'counter' => 1, 'anonymous' => 'HELLO x',
    'loaded routes.php' => false];

return [
    'a closure stored by one worker runs in the other, which never loaded the file declaring it' => function (Fpm $fpm, string $dir) use ($served) {
        closures_app($dir);
        [$stored, $writer] = closures_call($fpm, $dir, 'op=build');
        [$run, $reader] = statics_call_other($fpm, $dir, 'op=run', $writer, 'closures.php');
        [$again] = statics_call($fpm, $dir, 'op=run', 'closures.php');
        return [$stored === true && $reader !== $writer && $run === $served && $again === $served,
            json_encode([$stored, $writer, $reader, $run, $again])];
    },
    'after opcache_invalidate() of the declaring file in one worker, the kept closures are a miss in the other' => function (Fpm $fpm, string $dir) use ($served) {
        closures_app($dir);
        [$stored, $writer] = closures_call($fpm, $dir, 'op=build');
        [$before] = closures_call($fpm, $dir, 'op=run');
        [$invalidated] = closures_call($fpm, $dir, 'op=invalidate');
        [$after, $reader] = statics_call_other($fpm, $dir, 'op=run', $writer, 'closures.php');
        return [$stored === true && $before === $served && $invalidated === true && $after === ['miss' => null, 'kept' => false],
            json_encode([$stored, $before, $invalidated, $writer, $reader, $after])];
    },
    'after opcache_reset() in one worker, the kept closures are a miss in the other' => function (Fpm $fpm, string $dir) use ($served) {
        closures_app($dir);
        [$stored, $writer] = closures_call($fpm, $dir, 'op=build');
        [$reset] = closures_call($fpm, $dir, 'op=reset');
        [$after, $reader] = statics_call_other($fpm, $dir, 'op=run', $writer, 'closures.php');
        [$rebuilt] = closures_call($fpm, $dir, 'op=build');
        [$served_again] = statics_call_other($fpm, $dir, 'op=run', $writer, 'closures.php');
        return [$stored === true && $reset === true && $after === ['miss' => null, 'kept' => false] && $rebuilt === true
            && $served_again === $served, json_encode([$stored, $reset, $writer, $reader, $after, $rebuilt, $served_again])];
    },
];
