<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

/**
 * Symfony's suites sleep for real where Symfony's own CI mocks the clock
 * (phpunit-bridge's ClockMock, which cannot reach the extension's clock).
 * These are skipped, as Symfony's ApcuAdapterTest skips them; expiry
 * through the adapter is tested in tests/Symfony with one short sleep.
 */
final class SlowTests
{
    public const SYMFONY = [
        'testExpiration' => 'Sleeps 3 s; covered by ResidentAdapterTest::testLifetimes',
        'testDefaultLifeTime' => 'Sleeps 3 s; covered by ResidentAdapterTest::testLifetimes',
        'testHasItemReturnsFalseWhenDeferredItemIsExpired' => 'Sleeps 3 s; covered by the PSR-6 contract',
        'testTagItemExpiry' => 'Sleeps 20 s; covered by ResidentAdapterTest::testLifetimes',
        'testPrune' => 'Resident reclaims expired entries itself: nothing to prune',
    ];
}
