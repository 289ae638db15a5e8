<?php

declare(strict_types=1);

use Slim\Psr7\Factory\ServerRequestFactory;

/*
 * Resident kept-app: the booted app (container, App, routes: boot.php's
 * result, before any middleware) is built once, kept in Resident, and each
 * request fetches it and runs the skeleton's per-request half on it.
 * Before it is stored, one GET / goes through it, so what the app builds
 * lazily on its first request (FastRoute's dispatch data, resolved
 * container entries) is kept too; its response is discarded.
 */
require __DIR__ . '/../vendor/autoload.php';

// Resident cannot store closures yet: the kept app is the closure-free copy
// (app-cf/). Once closure records land, this line becomes __DIR__ . '/../app'.
const KEPT_APP_CODE = __DIR__ . '/../app-cf';

$app = Resident\Cache::pool('slim-bench')->remember('app:' . KEPT_APP_CODE, static function () {
    $app = (require __DIR__ . '/../app/boot.php')(KEPT_APP_CODE);
    $app->handle((new ServerRequestFactory())->createServerRequest('GET', '/'));
    return $app;
});
(require __DIR__ . '/../app/serve.php')($app);
