<?php

declare(strict_types=1);

namespace Resident\Tests\Laravel;

use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\LockTimeoutException;
use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Laravel\ResidentStore;

final class ResidentLockTest extends TestCase
{
    private Repository $cache;

    protected function setUp(): void
    {
        $pool = Cache::pool('test-laravel');
        $pool->clear();
        $this->cache = new Repository(new ResidentStore($pool, 'app'));
    }

    public function testOneOwnerAtATime(): void
    {
        $first = $this->cache->lock('import', 60);
        $second = $this->cache->lock('import', 60);
        self::assertTrue($first->get());
        self::assertFalse($second->get());
        self::assertFalse($second->release(), 'not the owner');
        self::assertTrue($first->release());
        self::assertTrue($second->get());
        $second->release();
    }

    public function testGetWithACallbackReleases(): void
    {
        self::assertSame('done', $this->cache->lock('job', 60)->get(fn () => 'done'));
        self::assertTrue($this->cache->lock('job', 60)->get());
    }

    public function testRestoredLockReleasesForItsOwner(): void
    {
        $lock = $this->cache->lock('shared', 60);
        self::assertTrue($lock->get());
        $restored = $this->cache->restoreLock('shared', $lock->owner());
        self::assertTrue($restored->release());
        self::assertTrue($this->cache->lock('shared', 60)->get());
    }

    public function testForceRelease(): void
    {
        $this->cache->lock('stuck', 0)->get();
        self::assertFalse($this->cache->lock('stuck', 60)->get(), 'a lock of 0 seconds is held until released');
        $this->cache->lock('stuck')->forceRelease();
        self::assertTrue($this->cache->lock('stuck', 60)->get());
    }

    public function testALockExpiresAndBlockWaitsForIt(): void
    {
        self::assertTrue($this->cache->lock('expiring', 1)->get());
        $waiter = $this->cache->lock('expiring', 10)->betweenBlockedAttemptsSleepFor(50);
        $start = microtime(true);
        self::assertTrue($waiter->block(6));
        self::assertLessThan(5.0, microtime(true) - $start, "the 1 s lock expired (APCu: within 2 s)");
        $waiter->release();
    }

    public function testBlockTimesOut(): void
    {
        $this->cache->lock('held', 60)->get();
        $this->expectException(LockTimeoutException::class);
        $this->cache->lock('held', 60)->betweenBlockedAttemptsSleepFor(50)->block(0);
    }
}
