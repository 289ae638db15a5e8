<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

use PHPUnit\Framework\TestCase;
use UserCache\Cache;
use UserCache\CacheAvailability;
use UserCache\CachePoolStatus;
use UserCache\CacheStatus;

/**
 * UserCache\Cache as the ext-user_cache proposal declares it: the same
 * suite runs against the extension's classes and the polyfill's (over APCu
 * and over an array), so code written against the proposal runs on both.
 */
final class UserCacheTest extends TestCase
{
    protected function setUp(): void
    {
        foreach (['uc-a', 'uc-b', 'uc-locks', 'uc-remember', 'uc-counters'] as $pool) {
            Cache::deletePool($pool);
        }
    }

    public function testTheClassesAreTheExtensionsOrThePolyfills(): void
    {
        self::assertSame(\extension_loaded('resident'), (new \ReflectionClass(Cache::class))->isInternal());
        self::assertSame(CacheAvailability::Available, Cache::getStatus()->getAvailability());
    }

    public function testTheSignaturesAreTheStubs(): void
    {
        $signatures = [];
        foreach ([Cache::class, CacheStatus::class, CachePoolStatus::class] as $class) {
            foreach ((new \ReflectionClass($class))->getMethods(\ReflectionMethod::IS_PUBLIC) as $m) {
                if (str_starts_with($m->getName(), '__') || $m->getName() === 'take' || $m->getName() === 'of') {
                    continue; // the polyfill's internal factories and hooks
                }
                $params = array_map(fn (\ReflectionParameter $p) => $p->getType() . ' $' . $p->getName()
                    . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $m->getParameters());
                $signatures[] = ($m->isStatic() ? 'static ' : '') . substr($class, 10) . '::' . $m->getName() . '(' . implode(', ', $params) . '): ' . $m->getReturnType();
            }
        }
        sort($signatures);
        self::assertSame([
            'Cache::add(string $key, object|array|string|int|float|bool|null $value, int $ttl = 0): bool',
            'Cache::clear(): bool',
            'Cache::decrement(string $key, int $step = 1, int $ttl = 0): ?int',
            'Cache::delete(string $key): bool',
            'Cache::deleteMultiple(array $keys): bool',
            'Cache::fetch(string $key, mixed $default = NULL): mixed',
            'Cache::fetchMultiple(array $keys, mixed $default = NULL): array',
            'Cache::getPoolStatus(): UserCache\CachePoolStatus',
            'Cache::has(string $key): bool',
            'Cache::increment(string $key, int $step = 1, int $ttl = 0): ?int',
            'Cache::lock(string $key, int $lease = 0): bool',
            'Cache::remember(string $key, callable $callback, int $ttl = 0): mixed',
            'Cache::store(string $key, object|array|string|int|float|bool|null $value, int $ttl = 0): bool',
            'Cache::storeMultiple(array $values, int $ttl = 0): bool',
            'Cache::unlock(string $key): bool',
            'CachePoolStatus::getEntryCount(): int',
            'CachePoolStatus::getEntryKeys(): array',
            'CachePoolStatus::getPoolName(): string',
            'CachePoolStatus::getUsedMemory(): int',
            'CacheStatus::getAvailability(): UserCache\CacheAvailability',
            'CacheStatus::getCommitFailureCount(): int',
            'CacheStatus::getCommittedMemory(): int',
            'CacheStatus::getConfiguredMemory(): int',
            'CacheStatus::getDeadPinOwnersReclaimed(): int',
            'CacheStatus::getDeadPinsStripped(): int',
            'CacheStatus::getEntryCapacity(): int',
            'CacheStatus::getEntryCount(): int',
            'CacheStatus::getEvictionCount(): int',
            'CacheStatus::getExpungeCount(): int',
            'CacheStatus::getFreeMemory(): int',
            'CacheStatus::getGraphPinSlotsInUse(): int',
            'CacheStatus::getGraphPinnedReferences(): int',
            'CacheStatus::getSharedMemorySize(): int',
            'CacheStatus::getStoreFailureCount(): int',
            'CacheStatus::getTombstoneCount(): int',
            'CacheStatus::getUsedMemory(): int',
            'CacheStatus::getWastedMemory(): int',
            'static Cache::deletePool(string $pool): bool',
            'static Cache::getPool(string $pool): UserCache\Cache',
            'static Cache::getPools(): array',
            'static Cache::getStatus(): UserCache\CacheStatus',
            'static Cache::hasPool(string $pool): bool',
        ], $signatures);
        self::assertTrue((new \ReflectionMethod(Cache::class, '__construct'))->isPrivate());
        self::assertCount(10, CacheAvailability::cases());
        self::assertTrue((new \ReflectionClass(CacheStatus::class))->isReadOnly());
    }

    public function testPools(): void
    {
        $a = Cache::getPool('uc-a');
        $b = Cache::getPool('uc-b');
        self::assertSame($a, Cache::getPool('uc-a'));
        self::assertFalse($a == $b);
        self::assertTrue($a == Cache::getPool('uc-a'));
        self::assertTrue(Cache::hasPool('uc-a'));
        self::assertSame($a, Cache::getPools()['uc-a']);
        self::assertTrue($a->store('k', 'in a'));
        self::assertTrue($b->store('k', 'in b'));
        self::assertSame(['in a', 'in b'], [$a->fetch('k'), $b->fetch('k')]);
        self::assertSame(['k'], $a->getPoolStatus()->getEntryKeys());
        self::assertSame('uc-a', $a->getPoolStatus()->getPoolName());
        self::assertTrue(Cache::deletePool('uc-a'));
        self::assertFalse(Cache::hasPool('uc-a'));
        self::assertNull(Cache::getPool('uc-a')->fetch('k'));
        self::assertSame('in b', $b->fetch('k'));
    }

    public function testValues(): void
    {
        $c = Cache::getPool('uc-a');
        self::assertTrue($c->store('array', ['x' => [1, 2.5, null]], 60));
        self::assertFalse($c->add('array', 'other'));
        self::assertSame(['x' => [1, 2.5, null]], $c->fetch('array'));
        self::assertSame('default', $c->fetch('missing', 'default'));
        self::assertTrue($c->has('array'));
        self::assertFalse($c->has('missing'));
        self::assertTrue($c->delete('missing'));
        self::assertTrue($c->storeMultiple(['one' => 1, 2 => 'two']));
        self::assertSame(['one' => 1, 2 => 'two', 'none' => false], $c->fetchMultiple(['one', 2, 'none'], false));
        self::assertTrue($c->deleteMultiple(['one', 2]));
        self::assertSame(['one' => null], $c->fetchMultiple(['one']));
        $object = new \ArrayObject([1]);
        self::assertTrue($c->store('object', $object));
        self::assertEquals($object, $c->fetch('object'));
        self::assertNotSame($c->fetch('object'), $c->fetch('object'));
        self::assertTrue($c->clear());
        self::assertSame([], $c->getPoolStatus()->getEntryKeys());
    }

    public function testCounters(): void
    {
        $c = Cache::getPool('uc-counters');
        self::assertSame([1, 11, 10, -3], [$c->increment('n'), $c->increment('n', 10), $c->decrement('n'), $c->decrement('m', 3)]);
        $c->store('s', 'text');
        $this->assertThrows(\ValueError::class, 'Increment of user cache key "s" requires the stored value to be an integer', fn () => $c->increment('s'));
        $c->store('max', PHP_INT_MAX);
        $this->assertThrows(\ArithmeticError::class, 'Increment of user cache key "max" would exceed the range of a PHP integer', fn () => $c->increment('max'));
        self::assertSame(PHP_INT_MAX, $c->fetch('max'));
    }

    public function testErrors(): void
    {
        $c = Cache::getPool('uc-a');
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::store(): Argument #1 ($key) must be a non-empty string', fn () => $c->store('', 1));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::fetch(): Argument #1 ($key) must not contain the user-cache key delimiter 0x1F', fn () => $c->fetch("a\x1fb"));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::store(): Argument #3 ($ttl) must be greater than or equal to 0', fn () => $c->store('k', 1, -1));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::lock(): Argument #2 ($lease) must be greater than or equal to 0', fn () => $c->lock('k', -1));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::increment(): Argument #2 ($step) must be greater than or equal to 0', fn () => $c->increment('k', -1));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::getPool(): Argument #1 ($pool) must not be empty', fn () => Cache::getPool(''));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::fetchMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that do not contain 0x1F',
            fn () => $c->fetchMultiple(['a', 1.5]));
        $this->assertThrows(\ValueError::class, 'UserCache\Cache::storeMultiple(): Argument #1 ($values) must be an array with non-empty string or int keys that do not contain 0x1F',
            fn () => $c->storeMultiple(['' => 1]));
        $this->assertThrows(\TypeError::class, 'Closure objects cannot be stored in the user cache', fn () => $c->store('k', fn () => 1));
        $this->assertThrows(\TypeError::class, 'Resources cannot be stored in the user cache', fn () => $c->store('k', ['in' => STDERR]));
        $this->assertThrows(\TypeError::class, 'WeakReference objects cannot be stored in the user cache', fn () => $c->store('k', \WeakReference::create($c)));
        $this->assertThrows(\TypeError::class, 'class@anonymous objects cannot be stored in the user cache', fn () => $c->store('k', new class () {}));
        $this->assertThrows(\TypeError::class, 'ArrayObject@anonymous objects cannot be stored in the user cache', fn () => $c->store('k', ['in' => new class () extends \ArrayObject {}]));
        $this->assertThrows(\TypeError::class, 'The state of the ArrayObject object cannot be stored in the user cache', fn () => $c->store('k', ['in' => @new \ArrayObject(new \stdClass())]));
        $this->assertThrows(\TypeError::class, 'The state of the ArrayIterator object cannot be stored in the user cache', fn () => $c->add('k', @new \ArrayIterator(new \stdClass())));
        self::assertFalse($c->storeMultiple(['ok' => 1]) && $c->has('never'));
        $this->assertThrows(\TypeError::class, 'Closure objects cannot be stored in the user cache', fn () => $c->storeMultiple(['first' => 1, 'bad' => [fn () => 1]]));
        self::assertFalse($c->has('first'));
        $this->assertThrows(\Error::class, null, fn () => new Cache());
        $this->assertThrows(\Error::class, null, fn () => clone $c);
        $this->assertThrows(\Exception::class, "Serialization of 'UserCache\Cache' is not allowed", fn () => serialize($c));
    }

    public function testLocksAndRemember(): void
    {
        $c = Cache::getPool('uc-locks');
        self::assertTrue($c->lock('k'));
        self::assertTrue($c->lock('k'));
        self::assertTrue($c->store('k', 'the holder writes'));
        self::assertTrue($c->unlock('k'));
        self::assertFalse($c->unlock('k'));
        self::assertFalse($c->unlock('never'));
        $r = Cache::getPool('uc-remember');
        $calls = 0;
        $compute = function (string $key) use (&$calls): string {
            $calls++;

            return "computed:$key";
        };
        self::assertSame(['computed:x', 'computed:x', 1], [$r->remember('x', $compute, 60), $r->remember('x', $compute), $calls]);
        try {
            $r->remember('y', fn () => throw new \RuntimeException('failed'));
        } catch (\RuntimeException) {
        }
        self::assertFalse($r->has('y'));
        self::assertTrue($r->lock('y'), 'a failed compute leaves no lock');
        $r->unlock('y');
        // lock() in the callback makes remember()'s lock the caller's: it stays after remember().
        self::assertSame(1, $r->remember('z', fn () => $r->lock('z', 30) ? 1 : 0));
        self::assertSame([true, false], [$r->unlock('z'), $r->unlock('z')]);
    }

    public function testALockHeldByAnotherProcess(): void
    {
        if (!\extension_loaded('resident') && getenv('RESIDENT_TEST_MODE') !== 'apcu') {
            self::markTestSkipped('the polyfill over an array shares nothing between processes');
        }
        $c = Cache::getPool('uc-locks');
        $c->store('guarded', 'before');
        [$parent, $child] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === 0) {
            fclose($parent);
            $ok = $c->lock('guarded');
            fwrite($child, $ok ? 'L' : 'F');
            fread($child, 1);
            exit(0);
        }
        fclose($child);
        self::assertSame('L', fread($parent, 1));
        $held = [$c->lock('guarded'), $c->unlock('guarded'), $c->clear()];
        fwrite($parent, 'D');
        pcntl_waitpid($pid, $status);
        self::assertSame([false, false, false], $held);
        // The child's request (process) ended: its lock went with it.
        self::assertSame([true, true, 'before'], [$c->lock('guarded'), $c->unlock('guarded'), $c->fetch('guarded')]);
    }

    private function assertThrows(string $class, ?string $message, callable $call): void
    {
        try {
            $call();
        } catch (\Throwable $e) {
            self::assertInstanceOf($class, $e, $e->getMessage());
            if ($message !== null) {
                self::assertSame($message, $e->getMessage());
            }

            return;
        }
        self::fail("no $class thrown");
    }
}
