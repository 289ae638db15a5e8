<?php

declare(strict_types=1);

namespace App\Application\Actions;

use JsonSerializable;

final class ActionError implements JsonSerializable
{
    public const BAD_REQUEST = 'BAD_REQUEST';
    public const INSUFFICIENT_PRIVILEGES = 'INSUFFICIENT_PRIVILEGES';
    public const NOT_ALLOWED = 'NOT_ALLOWED';
    public const NOT_IMPLEMENTED = 'NOT_IMPLEMENTED';
    public const RESOURCE_NOT_FOUND = 'RESOURCE_NOT_FOUND';
    public const SERVER_ERROR = 'SERVER_ERROR';
    public const UNAUTHENTICATED = 'UNAUTHENTICATED';

    public function __construct(private string $type, private ?string $description = null)
    {
    }

    public function setDescription(?string $description): self
    {
        $this->description = $description;
        return $this;
    }

    public function jsonSerialize(): array
    {
        return ['type' => $this->type, 'description' => $this->description];
    }
}
