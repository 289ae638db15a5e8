<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

/**
 * Waiting for entries to expire, for real: the extension's clock cannot be
 * mocked. Each suite sleeps once, for all of its expiry checks together.
 *
 * Checks that something has expired only ever wait longer under load, so
 * they cannot fail for it. Checks that something is still there use
 * lifetimes of a minute or more, far from any wait here.
 */
trait Expiry
{
    /** Seconds of the short lifetimes the expiry checks use. */
    protected const SHORT = 1;

    /**
     * Waits until what was stored with $ttl seconds has expired. APCu (the
     * polyfill's backend in tests/run.sh apcu) counts whole seconds: a 1 s
     * TTL lasts 1 to 2 s there.
     */
    protected static function waitPast(int $ttl): void
    {
        $apcu = getenv('RESIDENT_TEST_MODE') === 'apcu';
        usleep((int) (($ttl + ($apcu ? 1.1 : 0.1)) * 1e6));
    }
}
