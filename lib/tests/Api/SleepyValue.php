<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

/** Keeps one property through __sleep() and notes its __wakeup(). */
final class SleepyValue
{
    public bool $wokeUp = false;

    public mixed $kept;

    public mixed $dropped = null;

    public function __construct(mixed $kept, mixed $dropped)
    {
        $this->kept = $kept;
        $this->dropped = $dropped;
    }

    public function __sleep(): array
    {
        return ['kept'];
    }

    public function __wakeup(): void
    {
        $this->wokeUp = true;
    }
}
