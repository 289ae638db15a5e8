<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Contracts\Cache\Store;
use PHPUnit\Framework\TestCase;
use Resident\Tests\Contract\Expiry;

/**
 * What Laravel 11 asks of a store's atomic locks, as its own tests check
 * them (CacheArrayStoreTest's lock tests, and the Redis, Memcached and
 * file lock integration tests), in this project's own tests.
 */
abstract class LockContract extends TestCase
{
    use Expiry;

    /** @var Store&LockProvider */
    protected Store $store;

    /** @return Store&LockProvider a store over storage that the test may flush */
    abstract protected function createStore(): Store;

    protected function setUp(): void
    {
        $this->store = $this->createStore();
        self::assertInstanceOf(LockProvider::class, $this->store);
        $this->store->flush();
    }

    protected function tearDown(): void
    {
        if (isset($this->store)) {
            $this->store->flush();
        }
    }

    public function testALockIsAcquiredOnceUntilReleased(): void
    {
        $lock = $this->store->lock('foo', 10);
        self::assertTrue($lock->acquire());
        self::assertFalse($lock->acquire(), 'not even by its owner');
        self::assertFalse($this->store->lock('foo', 10)->get());
        self::assertTrue($lock->release());
        self::assertTrue($lock->acquire());
        self::assertFalse($this->createStore()->lock('foo', 10)->get(), 'another instance sees it held');
    }

    public function testAnotherOwnerCannotReleaseTheLock(): void
    {
        $owner = $this->store->lock('foo', 10);
        $other = $this->store->lock('foo', 10);
        self::assertTrue($owner->acquire());
        self::assertFalse($other->release());
        self::assertFalse($this->store->lock('foo', 10)->get(), 'still held');
    }

    public function testAnotherOwnerCanForceReleaseButThenNotRelease(): void
    {
        $owner = $this->store->lock('foo', 10);
        $other = $this->store->lock('foo', 10);
        $owner->acquire();
        $other->forceRelease();
        self::assertFalse($other->release(), 'nothing of its own to release');
        self::assertTrue($other->acquire());
    }

    public function testGetWithACallbackRunsItAndReleases(): void
    {
        self::assertSame('done', $this->store->lock('job', 10)->get(fn (): string => 'done'));
        self::assertTrue($this->store->lock('job', 10)->get());
        self::assertFalse($this->store->lock('job', 10)->get(fn (): string => self::fail('ran without the lock')));
    }

    public function testBlockWaitsForAFreeLockAndRunsTheCallback(): void
    {
        self::assertSame('taylor', $this->store->lock('foo', 10)->block(1, fn (): string => 'taylor'));
        self::assertTrue($this->store->lock('foo', 10)->block(1), 'released after the callback');
    }

    public function testBlockTimesOut(): void
    {
        $this->store->lock('foo', 10)->get();
        $this->expectException(LockTimeoutException::class);
        $this->store->lock('foo', 10)->betweenBlockedAttemptsSleepFor(50)->block(0);
    }

    public function testALockWhoseBlockCallbackThrowsIsReleased(): void
    {
        try {
            $this->store->lock('foo', 10)->block(1, static function (): never {
                throw new \RuntimeException('failed');
            });
        } catch (\RuntimeException) {
            // Whatever the caller makes of it, the lock must be free again.
        }
        self::assertTrue($this->store->lock('foo', 1)->get());
    }

    public function testARestoredLockBelongsToTheOwnerItWasRestoredFor(): void
    {
        $first = $this->store->lock('foo', 10);
        self::assertTrue($first->isOwnedBy(null), 'nobody holds it yet');
        self::assertTrue($first->get());
        self::assertTrue($first->isOwnedBy($first->owner()));
        self::assertTrue($this->store->restoreLock('foo', $first->owner())->isOwnedByCurrentProcess());
        $other = $this->store->restoreLock('foo', 'other_owner');
        self::assertFalse($other->isOwnedByCurrentProcess());
        self::assertTrue($other->isOwnedBy($first->owner()));
        self::assertFalse($this->store->restoreLock('never-taken', 'owner')->isOwnedByCurrentProcess());
    }

    public function testARestoredLockReleasesForItsOwner(): void
    {
        $first = $this->store->lock('foo', 10);
        $first->get();
        $this->store->restoreLock('foo', $first->owner())->release();
        self::assertTrue($this->store->lock('foo')->get());
    }

    public function testLocksExpireAfterTheirSecondsAndAnExpiredOwnerReleasesNothing(): void
    {
        $expiring = $this->store->lock('expiring', self::SHORT);
        self::assertTrue($expiring->get());
        $forever = $this->store->lock('forever');
        self::assertTrue($forever->get());
        $long = $this->store->lock('long', 3600);
        self::assertTrue($long->get());
        self::waitPast(self::SHORT);
        self::assertFalse($this->store->lock('forever', 10)->get(), 'a lock without seconds does not expire');
        self::assertFalse($this->store->lock('long', 10)->get());
        $next = $this->store->lock('expiring', 10);
        self::assertTrue($next->get(), 'the expired lock can be taken');
        self::assertFalse($expiring->release(), 'the first owner no longer holds it');
        self::assertFalse($this->store->lock('expiring', 10)->get(), "the first owner's release left the new owner's lock");
    }
}
