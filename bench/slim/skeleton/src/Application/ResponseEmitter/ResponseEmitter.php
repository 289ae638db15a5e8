<?php

declare(strict_types=1);

namespace App\Application\ResponseEmitter;

use Psr\Http\Message\ResponseInterface;
use Slim\ResponseEmitter as SlimEmitter;

/** Slim's emitter plus the permissive CORS and no-cache headers an API skeleton sends. */
final class ResponseEmitter extends SlimEmitter
{
    public function emit(ResponseInterface $response): void
    {
        $response = self::withApiHeaders($response, $_SERVER['HTTP_ORIGIN'] ?? '');
        // Whatever the script printed before (notices, stray output) would corrupt the body.
        if (ob_get_level() > 0 && ob_get_length() > 0) {
            ob_clean();
        }
        parent::emit($response);
    }

    /** Also used by bin/worker.php, which writes responses itself. */
    public static function withApiHeaders(ResponseInterface $response, string $origin): ResponseInterface
    {
        return $response
            ->withHeader('Access-Control-Allow-Credentials', 'true')
            ->withHeader('Access-Control-Allow-Origin', $origin)
            ->withHeader('Access-Control-Allow-Headers', 'X-Requested-With, Content-Type, Accept, Origin, Authorization')
            ->withHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
            ->withHeader('Cache-Control', 'no-store, no-cache, must-revalidate, max-age=0')
            ->withAddedHeader('Cache-Control', 'post-check=0, pre-check=0')
            ->withHeader('Pragma', 'no-cache');
    }
}
