<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

/** A value whose unserialization fails, as that of a class changed since the value was stored may. */
final class ThrowsOnWakeup
{
    public function __wakeup(): void
    {
        throw new \RuntimeException('cannot come back');
    }
}
