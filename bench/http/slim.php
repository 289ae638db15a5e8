<?php
/*
 * slim_hello: Debian's Slim 3 (php-slim) hello world, booted by every
 * request as under php-fpm. `persisted` keeps FastRoute's compiled route
 * data in a #[Resident\RequestOverStatic] static; everything else (the
 * container and its services, the app, the route, which hold closures) is
 * built again, as it must be. Returns the response's body.
 */
// Slim 3 predates PHP 8.1's return types: Debian's production setting.
error_reporting(E_ALL & ~E_DEPRECATED);
require_once '/usr/share/php/Slim/autoload.php';

#[Resident\RequestOverStatic]
final class KeptSlimRoutes
{
    public static ?array $data = null;
}

final class KeptRouter extends Slim\Router
{
    protected function createDispatcher()
    {
        if ($this->dispatcher) {
            return $this->dispatcher;
        }
        KeptSlimRoutes::$data ??= (function () {
            $collector = new FastRoute\RouteCollector(new FastRoute\RouteParser\Std(), new FastRoute\DataGenerator\GroupCountBased());
            foreach ($this->getRoutes() as $route) {
                $collector->addRoute($route->getMethods(), $route->getPattern(), $route->getIdentifier());
            }
            return $collector->getData();
        })();
        return $this->dispatcher = new FastRoute\Dispatcher\GroupCountBased(KeptSlimRoutes::$data);
    }
}

function bench_slim_hello(string $backend): string
{
    $services = $backend === 'persisted' ? ['router' => fn () => new KeptRouter()] : [];
    $app = new Slim\App($services + ['environment' => Slim\Http\Environment::mock(['REQUEST_URI' => '/hello', 'REQUEST_METHOD' => 'GET'])]);
    $app->get('/hello', function ($request, $response) {
        return $response->write('Hello, World!');
    });
    $response = $app->run(true);
    return (string)$response->getBody();
}
