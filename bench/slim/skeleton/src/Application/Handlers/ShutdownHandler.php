<?php

declare(strict_types=1);

namespace App\Application\Handlers;

use App\Application\ResponseEmitter\ResponseEmitter;
use Psr\Http\Message\ServerRequestInterface;
use Slim\Exception\HttpInternalServerErrorException;

/** Turns a fatal error at the end of the script into the same JSON error response. */
final class ShutdownHandler
{
    public function __construct(
        private readonly ServerRequestInterface $request,
        private readonly HttpErrorHandler $errorHandler,
        private readonly bool $displayErrorDetails,
    ) {
    }

    public function __invoke(): void
    {
        $error = error_get_last();
        if ($error === null || !($error['type'] & (E_ERROR | E_PARSE | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR))) {
            return;
        }
        $message = $this->displayErrorDetails
            ? sprintf('FATAL ERROR: %s in %s on line %d', $error['message'], $error['file'], $error['line'])
            : 'An error while processing your request. Please try again later.';
        $response = ($this->errorHandler)($this->request, new HttpInternalServerErrorException($this->request, $message),
            $this->displayErrorDetails, false, false);
        (new ResponseEmitter())->emit($response);
    }
}
