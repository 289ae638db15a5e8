<?php

declare(strict_types=1);

use DI\ContainerBuilder;
use Slim\App;
use Slim\Factory\AppFactory;

/*
 * The booting half of the skeleton's front controller: the PHP-DI container
 * built from $code's definition files (settings.php, dependencies.php,
 * repositories.php), the App, and $code/routes.php. Nothing here depends on
 * the request, which is what lets a worker or Resident keep the result; the
 * per-request half is serve.php (kept.php splits both for a kept app).
 * $code is the directory of the definition files (this one).
 */
return static function (string $code): App {
    $containerBuilder = new ContainerBuilder();
    // Off, as the skeleton ships it ("should be set to true in production").
    if (false) {
        $containerBuilder->enableCompilation(__DIR__ . '/../var/cache');
    }
    (require "$code/settings.php")($containerBuilder);
    (require "$code/dependencies.php")($containerBuilder);
    (require "$code/repositories.php")($containerBuilder);
    $container = $containerBuilder->build();

    AppFactory::setContainer($container);
    $app = AppFactory::create();
    (require "$code/routes.php")($app);
    return $app;
};
