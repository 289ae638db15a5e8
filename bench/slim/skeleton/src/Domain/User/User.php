<?php

declare(strict_types=1);

namespace App\Domain\User;

use JsonSerializable;

final class User implements JsonSerializable
{
    public function __construct(
        public readonly ?int $id,
        public readonly string $username,
        public readonly string $firstName,
        public readonly string $lastName,
    ) {
    }

    public function jsonSerialize(): array
    {
        return ['id' => $this->id, 'username' => strtolower($this->username),
            'firstName' => ucfirst($this->firstName), 'lastName' => ucfirst($this->lastName)];
    }
}
