<?php

declare(strict_types=1);

namespace App\Application\Actions;

use App\Domain\DomainException\DomainRecordNotFoundException;
use Psr\Http\Message\ResponseInterface as Response;
use Psr\Http\Message\ServerRequestInterface as Request;
use Psr\Log\LoggerInterface;
use Slim\Exception\HttpBadRequestException;
use Slim\Exception\HttpNotFoundException;

/** A route handler class: keeps the request, response and route arguments for action() to use. */
abstract class Action
{
    protected Request $request;
    protected Response $response;
    protected array $args;

    public function __construct(protected LoggerInterface $logger)
    {
    }

    public function __invoke(Request $request, Response $response, array $args): Response
    {
        $this->request = $request;
        $this->response = $response;
        $this->args = $args;
        try {
            return $this->action();
        } catch (DomainRecordNotFoundException $e) {
            throw new HttpNotFoundException($this->request, $e->getMessage());
        }
    }

    abstract protected function action(): Response;

    protected function resolveArg(string $name): mixed
    {
        if (!array_key_exists($name, $this->args)) {
            throw new HttpBadRequestException($this->request, "Could not resolve argument `$name`.");
        }
        return $this->args[$name];
    }

    protected function respondWithData(mixed $data = null, int $status = 200): Response
    {
        return $this->respond(new ActionPayload($status, $data));
    }

    protected function respond(ActionPayload $payload): Response
    {
        $this->response->getBody()->write(json_encode($payload, JSON_PRETTY_PRINT));
        return $this->response->withHeader('Content-Type', 'application/json')->withStatus($payload->getStatusCode());
    }
}
