<?php

declare(strict_types=1);

namespace App\ClosureFree;

use Psr\Http\Message\ResponseInterface as Response;
use Psr\Http\Message\ServerRequestInterface as Request;

/** The "/" route closure of app/routes.php (app-cf/). */
final class HelloWorld
{
    public function __invoke(Request $request, Response $response): Response
    {
        $response->getBody()->write('Hello world!');
        return $response;
    }
}
