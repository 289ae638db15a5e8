<?php

declare(strict_types=1);

use App\Application\Handlers\HttpErrorHandler;
use App\Application\Handlers\ShutdownHandler;
use App\Application\ResponseEmitter\ResponseEmitter;
use App\Application\Settings\SettingsInterface;
use Psr\Log\LoggerInterface;
use Slim\App;
use Slim\Factory\ServerRequestCreatorFactory;

/*
 * The skeleton's front controller split for Resident\Cache::keep(): what
 * does not depend on the request is built once per deploy and kept (the
 * app as written, closures and all: container, routes, middleware, which
 * Slim wraps in anonymous classes; the error handler; the PSR-7 request
 * creator Slim detects); what does is done per request (the request from
 * the globals, the shutdown handler that holds it, handle, emit). The
 * same middleware and handlers as serve.php, in the same order.
 */
return [
    'build' => static function (): array {
        $app = (require __DIR__ . '/boot.php')(__DIR__);
        $settings = $app->getContainer()->get(SettingsInterface::class);
        $displayErrorDetails = $settings->get('displayErrorDetails');

        (require __DIR__ . '/middleware.php')($app);
        $errorHandler = new HttpErrorHandler($app->getCallableResolver(), $app->getResponseFactory());
        $app->addRoutingMiddleware();
        $app->addBodyParsingMiddleware();
        $errorMiddleware = $app->addErrorMiddleware($displayErrorDetails, $settings->get('logError'), $settings->get('logErrorDetails'));
        $errorMiddleware->setDefaultErrorHandler($errorHandler);
        // One request through it first: what the app builds on its first
        // request (FastRoute's dispatch data, resolved container entries)
        // is kept too. Its response is dropped.
        $app->handle((new Slim\Psr7\Factory\ServerRequestFactory())->createServerRequest('GET', '/'));
        // What the reset resets is built with the app: asked of the
        // container for the first time by the reset, the logger would be
        // built again by every request ("/" never asks for it).
        $app->getContainer()->get(LoggerInterface::class);

        return [
            'app' => $app,
            'errorHandler' => $errorHandler,
            'displayErrorDetails' => $displayErrorDetails,
            'requestCreator' => ServerRequestCreatorFactory::create(),
        ];
    },
    // What a request must not inherit from the one that built the app: the
    // logger's processors (Monolog's UidProcessor stamps one id per request).
    'reset' => static function (array $kept): void {
        $logger = $kept['app']->getContainer()->get(LoggerInterface::class);
        if ($logger instanceof Monolog\ResettableInterface) {
            $logger->reset();
        }
    },
    'serve' => static function (array $kept): void {
        $request = $kept['requestCreator']->createServerRequestFromGlobals();
        register_shutdown_function(new ShutdownHandler($request, $kept['errorHandler'], $kept['displayErrorDetails']));
        (new ResponseEmitter())->emit($kept['app']->handle($request));
    },
];
