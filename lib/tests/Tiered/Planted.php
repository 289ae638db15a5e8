<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

/**
 * A class an attacker with write access to Redis would name in a payload:
 * every way PHP can bring an object of it to life is counted.
 */
final class Planted
{
    public static int $madeAlive = 0;

    public string $command = 'rm -rf /';

    public function __wakeup(): void
    {
        self::$madeAlive++;
    }

    public function __destruct()
    {
        self::$madeAlive++;
    }
}
