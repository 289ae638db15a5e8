<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

/** Its __serialize() returns a closure, which no cache can keep. */
final class SerializesAClosure
{
    public function __serialize(): array
    {
        return ['x' => [CacheApiTest::uncacheableClosure()]];
    }

    public function __unserialize(array $data): void
    {
    }
}
