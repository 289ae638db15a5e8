<?php

declare(strict_types=1);

namespace App\Application\Middleware;

use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Server\MiddlewareInterface;
use Psr\Http\Server\RequestHandlerInterface;

/** Opens the PHP session only for requests that authenticate, and hands its data on as an attribute. */
final class SessionMiddleware implements MiddlewareInterface
{
    public function process(ServerRequestInterface $request, RequestHandlerInterface $handler): ResponseInterface
    {
        if (array_key_exists('HTTP_AUTHORIZATION', $request->getServerParams())) {
            session_start();
            $request = $request->withAttribute('session', $_SESSION);
        }
        return $handler->handle($request);
    }
}
