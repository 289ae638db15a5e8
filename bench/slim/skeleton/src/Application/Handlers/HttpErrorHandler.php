<?php

declare(strict_types=1);

namespace App\Application\Handlers;

use App\Application\Actions\ActionError;
use App\Application\Actions\ActionPayload;
use Psr\Http\Message\ResponseInterface;
use Slim\Exception\HttpBadRequestException;
use Slim\Exception\HttpException;
use Slim\Exception\HttpForbiddenException;
use Slim\Exception\HttpMethodNotAllowedException;
use Slim\Exception\HttpNotFoundException;
use Slim\Exception\HttpNotImplementedException;
use Slim\Exception\HttpUnauthorizedException;
use Slim\Handlers\ErrorHandler;
use Throwable;

/** Renders every error as the JSON payload the actions use. */
final class HttpErrorHandler extends ErrorHandler
{
    private const TYPES = [
        HttpNotFoundException::class => ActionError::RESOURCE_NOT_FOUND,
        HttpMethodNotAllowedException::class => ActionError::NOT_ALLOWED,
        HttpUnauthorizedException::class => ActionError::UNAUTHENTICATED,
        HttpForbiddenException::class => ActionError::INSUFFICIENT_PRIVILEGES,
        HttpBadRequestException::class => ActionError::BAD_REQUEST,
        HttpNotImplementedException::class => ActionError::NOT_IMPLEMENTED,
    ];

    protected function respond(): ResponseInterface
    {
        $e = $this->exception;
        $status = 500;
        $error = new ActionError(ActionError::SERVER_ERROR, 'An internal error has occurred while processing your request.');
        if ($e instanceof HttpException) {
            $status = $e->getCode();
            $error = new ActionError(self::TYPES[$e::class] ?? ActionError::SERVER_ERROR, $e->getMessage());
        }
        if ($this->displayErrorDetails && !$e instanceof HttpException && $e instanceof Throwable) {
            $error->setDescription($e->getMessage());
        }
        $response = $this->responseFactory->createResponse($status);
        $response->getBody()->write(json_encode(new ActionPayload($status, null, $error), JSON_PRETTY_PRINT));
        return $response->withHeader('Content-Type', 'application/json');
    }
}
