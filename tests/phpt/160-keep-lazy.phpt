--TEST--
Resident\Cache::keep() fetches the kept value lazily in a borrowing request whatever resident.lazy_objects says: only the objects the request uses are built (the others stay shells until used), and they behave as eagerly built ones
--EXTENSIONS--
opcache
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.lazy_objects=0
opcache.jit=disable
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
--FILE--
<?php
final class Logger { public array $lines = []; public function __construct(public string $name) {} }
final class Router
{
    public function __construct(public array $routes, public Logger $logger) {}
    public function handle(string $path): string { return ($this->routes[$path])(); }
}
final class App
{
    public function __construct(public Router $router, public Logger $logger, public array $settings) {}
}
function shells(): array
{
    $s = Resident\Cache::status()['request_over_static'];
    return [$s['shells_this_request'], $s['shells_filled_this_request']];
}
$build = function (): App {
    $logger = new Logger('app');
    return new App(new Router(['/' => static fn () => 'Hello'], $logger), $logger, ['debug' => false]);
};
$c = Resident\Cache::pool('keep-lazy');
$built = $c->keep('app', $build);
echo "built: ", get_class($built), " ", json_encode(shells()), "\n";

// A later request (the entry is read as any worker reads it): a shell of
// the app, filled when used, then its router; the logger both hold is one
// object, filled when first used.
$app = $c->keep('app', $build);
echo "kept: ", json_encode(shells()), "\n";
echo $app->router->handle('/'), " ", json_encode(shells()), "\n";
var_dump($app->logger === $app->router->logger);
$app->logger->lines[] = 'used';
echo json_encode(shells()), " ", json_encode($app->router->logger->lines), "\n";
var_dump($app == $c->keep('app', $build));
?>
--EXPECT--
built: App [0,0]
kept: [1,0]
Hello [2,2]
bool(true)
[3,3] ["used"]
bool(false)
