<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use Psr\Log\LoggerInterface;
use Resident\Cache;
use Resident\Tiered;
use Resident\Tiered\Invalidator;
use Resident\Tiered\RespSubscriber;

/**
 * Two "hosts" in one test process: each has its own local tier (a pool of
 * its own) and its own listener, over one shared Redis. tests/tiered runs
 * the real thing, with two php-fpm masters.
 */
trait TwoHosts
{
    /**
     * The deadline of the tests that are not about deadlines: wall time, so
     * a loaded machine (three runs of these tests side by side) could push a
     * call past Tiered's default 0.1 s and fail a write that these tests
     * expect to go through. The tests of the deadline give their own.
     */
    private const FUNCTIONAL_DEADLINE = 5.0;

    /** A host's Tiered over pool $pool, with an empty local tier. */
    private static function host(
        string $pool,
        \Redis|\RedisArray|\RedisCluster|\Memcached|\Closure $shared,
        string $namespace = 'catalog',
        int $localTtl = 10,
        ?\Closure $onError = null,
        int $pollMs = 1000,
        ?LoggerInterface $logger = null,
        float $breakerCooldown = 1.0,
        float $deadline = self::FUNCTIONAL_DEADLINE,
    ): Tiered {
        $local = Cache::pool($pool);
        $local->clear();

        return new Tiered($local, $shared, $namespace, $localTtl, $pollMs, onError: $onError, logger: $logger,
            breakerCooldown: $breakerCooldown, deadline: $deadline);
    }

    /**
     * Waits until what was stored with $ttl seconds has expired. APCu (the
     * polyfill's backend in tests/run.sh apcu) counts whole seconds: a 1 s
     * TTL lasts 1 to 2 s there.
     */
    private static function waitPast(int $ttl): void
    {
        $apcu = getenv('RESIDENT_TEST_MODE') === 'apcu';
        usleep((int) (($ttl + ($apcu ? 1.1 : 0.1)) * 1e6));
    }

    /** The listener of $host's local tier, subscribed on $address. */
    private static function listener(Tiered $host, string $address, ?\Closure $log = null): Invalidator
    {
        $shared = $host->sharedTier();
        \assert($shared instanceof Tiered\RedisTier);
        $listener = new Invalidator($host->localTier(), $shared, fn () => new RespSubscriber($address), $log);
        $listener->connect();

        return $listener;
    }
}
