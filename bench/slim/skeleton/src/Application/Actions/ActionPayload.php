<?php

declare(strict_types=1);

namespace App\Application\Actions;

use JsonSerializable;

/** What an action answers: a status, and data or an error. */
final class ActionPayload implements JsonSerializable
{
    public function __construct(
        private readonly int $statusCode = 200,
        private readonly mixed $data = null,
        private readonly ?ActionError $error = null,
    ) {
    }

    public function getStatusCode(): int
    {
        return $this->statusCode;
    }

    public function jsonSerialize(): array
    {
        $out = ['statusCode' => $this->statusCode];
        if ($this->data !== null) {
            $out['data'] = $this->data;
        } elseif ($this->error !== null) {
            $out['error'] = $this->error;
        }
        return $out;
    }
}
