<?php

declare(strict_types=1);

namespace App\ClosureFree;

use Psr\Http\Message\ResponseInterface as Response;
use Psr\Http\Message\ServerRequestInterface as Request;

/** The OPTIONS catch-all closure of app/routes.php (app-cf/). */
final class Preflight
{
    public function __invoke(Request $request, Response $response): Response
    {
        return $response;
    }
}
