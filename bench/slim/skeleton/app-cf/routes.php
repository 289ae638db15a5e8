<?php

declare(strict_types=1);

use App\ClosureFree\HelloWorld;
use App\ClosureFree\Preflight;
use App\ClosureFree\UserRoutes;
use Slim\App;

// app/routes.php with each route closure as an invokable class.
return function (App $app) {
    $app->options('/{routes:.*}', Preflight::class);
    $app->get('/', HelloWorld::class);
    $app->group('/users', UserRoutes::class);
};
