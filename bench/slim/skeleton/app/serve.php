<?php

declare(strict_types=1);

use App\Application\Handlers\HttpErrorHandler;
use App\Application\Handlers\ShutdownHandler;
use App\Application\ResponseEmitter\ResponseEmitter;
use App\Application\Settings\SettingsInterface;
use Slim\App;
use Slim\Factory\ServerRequestCreatorFactory;

/*
 * The per-request half of the skeleton's front controller under php-fpm:
 * middleware (the skeleton adds its own before the routes; the order does
 * not change what runs), the request from the globals, the error and
 * shutdown handlers, routing, body parsing and error middleware, handle,
 * emit.
 */
return static function (App $app): void {
    $settings = $app->getContainer()->get(SettingsInterface::class);
    $displayErrorDetails = $settings->get('displayErrorDetails');
    $logError = $settings->get('logError');
    $logErrorDetails = $settings->get('logErrorDetails');

    (require __DIR__ . '/middleware.php')($app);

    $request = ServerRequestCreatorFactory::create()->createServerRequestFromGlobals();

    $responseFactory = $app->getResponseFactory();
    $errorHandler = new HttpErrorHandler($app->getCallableResolver(), $responseFactory);
    register_shutdown_function(new ShutdownHandler($request, $errorHandler, $displayErrorDetails));

    $app->addRoutingMiddleware();
    $app->addBodyParsingMiddleware();
    $errorMiddleware = $app->addErrorMiddleware($displayErrorDetails, $logError, $logErrorDetails);
    $errorMiddleware->setDefaultErrorHandler($errorHandler);

    (new ResponseEmitter())->emit($app->handle($request));
};
