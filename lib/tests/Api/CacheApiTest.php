<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\KeyIterator;

/**
 * The Resident\Cache API as the extension implements it. The same tests run
 * against the extension and against the polyfill (tests/run.sh extension,
 * apcu, array), so the polyfill is held to the extension's behaviour.
 */
final class CacheApiTest extends TestCase
{
    private Cache $cache;

    protected function setUp(): void
    {
        $this->cache = Cache::pool('test-api');
        $this->cache->clear();
    }

    public function testPoolNames(): void
    {
        self::assertSame('test-api', $this->cache->name());
        self::assertSame('default', Cache::pool()->name());
        foreach (['', str_repeat('x', 64), "a\nb", "a\0b"] as $bad) {
            try {
                Cache::pool($bad);
                self::fail('accepted the pool name ' . json_encode($bad));
            } catch (\ValueError $e) {
                self::assertSame('Resident\Cache::pool(): Argument #1 ($name) must be between 1 and 63 bytes without control characters', $e->getMessage());
            }
        }
        foreach (['(remember)', '(statics)', '()'] as $reserved) {
            try {
                Cache::pool($reserved);
                self::fail('accepted the pool name ' . $reserved);
            } catch (\ValueError $e) {
                self::assertSame("Resident\\Cache::pool(): Argument #1 (\$name) must not be enclosed in parentheses, which name Resident's own pools", $e->getMessage());
            }
        }
        self::assertSame('(a', Cache::pool('(a')->name());
        self::assertSame(str_repeat('x', 63), Cache::pool(str_repeat('x', 63))->name());
    }

    public function testAnUnpinnedPoolCannotBePinnedLater(): void
    {
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('Resident\Cache::pool(): Argument #2 ($pinned) cannot pin pool "test-api": it already exists unpinned');
        Cache::pool('test-api', true);
    }

    public function testPinnedPool(): void
    {
        $pinned = Cache::pool('test-api-pinned', true);
        self::assertTrue($pinned->info()['pinned']);
        self::assertTrue(Cache::pool('test-api-pinned')->info()['pinned']);
        self::assertFalse($this->cache->info()['pinned']);
    }

    public function testPoolsAreSeparateNamespaces(): void
    {
        $other = Cache::pool('test-api-other');
        $other->clear();
        $this->cache->store('k', 'here');
        $other->store('k', 'there');
        self::assertSame('here', $this->cache->fetch('k'));
        self::assertSame('there', $other->fetch('k'));
        $this->cache->clear();
        self::assertFalse($this->cache->exists('k'));
        self::assertSame('there', $other->fetch('k'));
        // Two objects for one name share the entries.
        self::assertSame('there', Cache::pool('test-api-other')->fetch('k'));
    }

    public function testStoreFetchExistsDelete(): void
    {
        $values = [
            'null' => null, 'false' => false, 'int' => -7, 'float' => 1.5, 'nan-free' => -0.0,
            'string' => "bin\0ary", 'list' => [1, [2, 3]], 'map' => ['a' => 1, 5 => 'five'],
        ];
        foreach ($values as $key => $value) {
            self::assertTrue($this->cache->store($key, $value));
        }
        foreach ($values as $key => $value) {
            self::assertTrue($this->cache->exists($key), $key);
            self::assertSame($value, $this->cache->fetch($key, 'miss'), $key);
        }
        self::assertTrue($this->cache->delete('null'));
        self::assertFalse($this->cache->delete('null'));
        self::assertFalse($this->cache->exists('null'));
        self::assertSame('miss', $this->cache->fetch('null', 'miss'));
    }

    public function testAMissReturnsTheDefaultItself(): void
    {
        $default = new \stdClass();
        self::assertSame($default, $this->cache->fetch('absent', $default));
        self::assertNull($this->cache->fetch('absent'));
        $this->cache->store('present', null);
        self::assertNull($this->cache->fetch('present', $default));
    }

    public function testStoreReplacesAndAddDoesNot(): void
    {
        self::assertTrue($this->cache->add('k', 1));
        self::assertFalse($this->cache->add('k', 2));
        self::assertSame(1, $this->cache->fetch('k'));
        self::assertTrue($this->cache->store('k', 3));
        self::assertSame(3, $this->cache->fetch('k'));
    }

    public function testObjectsComeBackAsNewCopies(): void
    {
        $date = new \DateTimeImmutable('2026-01-02 03:04:05.678901', new \DateTimeZone('Europe/Paris'));
        $object = new \ArrayObject(['when' => $date]);
        $this->cache->store('o', $object);
        $object['when'] = 'changed after store';

        $first = $this->cache->fetch('o');
        $second = $this->cache->fetch('o');
        self::assertInstanceOf(\ArrayObject::class, $first);
        self::assertNotSame($first, $second);
        self::assertEquals($date, $first['when']);
        self::assertSame('Europe/Paris', $first['when']->getTimezone()->getName());
    }

    public function testSerializationHooksAreHonoured(): void
    {
        $this->cache->store('s', new SleepyValue('kept', 'dropped'));
        $value = $this->cache->fetch('s');
        self::assertSame('kept', $value->kept);
        self::assertNull($value->dropped);
        self::assertTrue($value->wokeUp);
    }

    public function testBadKeys(): void
    {
        $cases = [
            '' => 'must not be empty',
            "a\0b" => 'must not contain NUL bytes',
            str_repeat('k', 4097) => 'must not be longer than 4096 bytes',
        ];
        foreach ($cases as $key => $problem) {
            foreach (['fetch', 'exists', 'delete'] as $method) {
                $this->assertValueError("Resident\\Cache::$method(): Argument #1 (\$key) $problem", fn () => $this->cache->$method((string) $key));
            }
            $this->assertValueError("Resident\\Cache::store(): Argument #1 (\$key) $problem", fn () => $this->cache->store((string) $key, 1));
        }
        self::assertTrue($this->cache->store(str_repeat('k', 4096), 1));
    }

    public function testBadTtls(): void
    {
        $this->assertValueError('Resident\Cache::store(): Argument #3 ($ttl) must be greater than or equal to 0', fn () => $this->cache->store('k', 1, -1));
        $this->assertValueError('Resident\Cache::store(): Argument #3 ($ttl) is too large', fn () => $this->cache->store('k', 1, \PHP_INT_MAX));
        $this->assertValueError('Resident\Cache::storeMultiple(): Argument #2 ($ttl) must be greater than or equal to 0', fn () => $this->cache->storeMultiple(['k' => 1], -1));
        $this->assertValueError('Resident\Cache::increment(): Argument #3 ($ttl) must be greater than or equal to 0', fn () => $this->cache->increment('k', 1, -1));
        self::assertFalse($this->cache->exists('k'));
    }

    /** A closure no cache can keep, whether OPcache runs or not. */
    public static function uncacheableClosure(): \Closure
    {
        return eval('return static fn () => 1;');
    }

    /** @return array{string, string} how a closure and an anonymous class of eval()'d code are refused */
    private static function codeRefusals(): array
    {
        return \extension_loaded('resident')
            ? ["a Closure declared in eval()'d code", "an instance of an anonymous class declared in eval()'d code"]
            : ['a Closure', 'an instance of an anonymous class'];
    }

    public function testValuesThatCannotBeCachedAreNamedByPath(): void
    {
        // Closures and anonymous classes of eval()'d code: the extension keeps
        // those declared in files OPcache caches, the polyfill none.
        [$closure, $anonymous] = self::codeRefusals();
        $cases = [
            "\$value is $closure" => self::uncacheableClosure(),
            "\$value['a']['b'][1] is $closure" => ['a' => ['b' => [1, self::uncacheableClosure()]]],
            "\$value[0] is $anonymous" => [eval('return new class () {};')],
            "\$value['it\\'s'] is a Generator" => ["it's" => (static function () { yield 1; })()],
            '$value is a resource' => \STDIN,
            '$value[0] is a resource' => [\STDIN],
            '$value is an instance of WeakMap' => new \WeakMap(),
            "\$value->__serialize()['x'][0] is $closure" => new SerializesAClosure(),
        ];
        if (!\extension_loaded('resident')) {
            // The polyfill finds closures and the like through serialize(), which
            // stores a nested resource as 0 instead of refusing it (lib/README.md).
            unset($cases['$value[0] is a resource']);
        }
        foreach ($cases as $where => $value) {
            try {
                $this->cache->store('k', $value);
                self::fail("stored a value where $where");
            } catch (\TypeError $e) {
                self::assertSame("Resident\\Cache::store(): Argument #2 (\$value) cannot be cached: $where", $e->getMessage());
            }
        }
        self::assertFalse($this->cache->exists('k'));
        // __sleep() leaves the closure out: fine.
        self::assertTrue($this->cache->store('k', new SleepyValue('kept', fn () => 1)));
    }

    public function testKeepBuildsOnceAndResetsEveryCopy(): void
    {
        $builds = 0;
        $build = function () use (&$builds): object {
            $builds++;

            return (object) ['request' => 'boot', 'served' => 0];
        };
        $reset = function (object $app): void {
            $app->request = 'reset';
        };
        $first = $this->cache->keep('app', $build, $reset);
        $first->served++;
        $second = $this->cache->keep('app', $build, $reset);
        self::assertSame(1, $builds);
        self::assertNotSame($first, $second);
        self::assertSame(['request' => 'reset', 'served' => 0], (array) $second);
        self::assertSame('reset', $first->request);
        $this->assertValueError('Resident\Cache::keep(): Argument #1 ($key) must not be empty', fn () => $this->cache->keep('', $build));
    }

    public function testStoreMultipleChecksEverythingBeforeStoringAnything(): void
    {
        try {
            $this->cache->storeMultiple(['good' => 1, 'bad' => ['z' => self::uncacheableClosure()]]);
            self::fail('stored a closure');
        } catch (\TypeError $e) {
            self::assertSame("Resident\\Cache::storeMultiple(): Argument #1 (\$values) cannot be cached: \$values['bad']['z'] is " . self::codeRefusals()[0], $e->getMessage());
        }
        $this->assertValueError('Resident\Cache::storeMultiple(): Argument #1 ($values) must not be empty', fn () => $this->cache->storeMultiple(['good' => 1, '' => 2]));
        self::assertFalse($this->cache->exists('good'));

        self::assertSame([], $this->cache->storeMultiple(['a' => 1, 7 => 'seven', 'b' => [2, 3]], 60));
        self::assertSame('seven', $this->cache->fetch('7'));
    }

    public function testFetchMultipleReturnsHitsOnly(): void
    {
        $this->cache->storeMultiple(['a' => 1, 'b' => null, '5' => 'five']);
        self::assertSame(['a' => 1, 'b' => null, 5 => 'five'], $this->cache->fetchMultiple(['a', 'b', 'c', 5]));
        self::assertSame(['a' => 1], $this->cache->fetchMultiple(['a', 'a']));
        self::assertSame([], $this->cache->fetchMultiple([]));
        try {
            $this->cache->fetchMultiple(['a', 1.5]);
            self::fail('accepted a float key');
        } catch (\TypeError $e) {
            self::assertSame('Resident\Cache::fetchMultiple(): Argument #1 ($keys) must contain only string keys, float given', $e->getMessage());
        }
        try {
            $this->cache->deleteMultiple([new \stdClass()]);
            self::fail('accepted an object key');
        } catch (\TypeError $e) {
            self::assertSame('Resident\Cache::deleteMultiple(): Argument #1 ($keys) must contain only string keys, stdClass given', $e->getMessage());
        }
        $this->assertValueError('Resident\Cache::fetchMultiple(): Argument #1 ($keys) must not be empty', fn () => $this->cache->fetchMultiple(['']));
    }

    public function testDeleteMultipleCountsWhatItDeleted(): void
    {
        $this->cache->storeMultiple(['a' => 1, 'b' => 2, '3' => 3]);
        self::assertSame(2, $this->cache->deleteMultiple(['a', 'a', 3, 'nope']));
        self::assertSame(['b'], iterator_to_array($this->cache->keys(), false));
    }

    public function testCounters(): void
    {
        self::assertSame(1, $this->cache->increment('n'));
        self::assertSame(11, $this->cache->increment('n', 10));
        self::assertSame(8, $this->cache->decrement('n', 3));
        self::assertSame(-2, $this->cache->decrement('fresh', 2));
        self::assertTrue($this->cache->cas('n', 8, 20));
        self::assertFalse($this->cache->cas('n', 8, 30));
        self::assertFalse($this->cache->cas('absent', 0, 1));
        self::assertSame(20, $this->cache->fetch('n'));
    }

    public function testCountersRefuseWhatIsNotAnInteger(): void
    {
        $this->cache->storeMultiple(['f' => 1.5, 'n' => null, 'a' => [1], 'o' => new \stdClass(), 'b' => true, 's' => '5']);
        $held = ['f' => 'a float', 'n' => 'a null', 'a' => 'an array', 'o' => 'an object', 'b' => 'a bool', 's' => 'a string'];
        foreach ($held as $key => $what) {
            foreach (['increment', 'decrement'] as $method) {
                try {
                    $this->cache->$method($key);
                    self::fail("$method() of $what");
                } catch (\TypeError $e) {
                    self::assertSame("Resident\\Cache::$method(): key \"$key\" holds $what, not an integer", $e->getMessage());
                }
            }
        }
        try {
            $this->cache->cas('s', 5, 6);
            self::fail('cas() of a string');
        } catch (\TypeError $e) {
            self::assertSame('Resident\Cache::cas(): key "s" holds a string, not an integer', $e->getMessage());
        }
    }

    public function testCounterOverflowLeavesTheValue(): void
    {
        $this->cache->store('max', \PHP_INT_MAX);
        try {
            $this->cache->increment('max');
            self::fail('overflowed');
        } catch (\ArithmeticError $e) {
            self::assertSame('Increment of key "max" by 1 would overflow its value ' . \PHP_INT_MAX, $e->getMessage());
        }
        self::assertSame(\PHP_INT_MAX, $this->cache->fetch('max'));
        $this->expectException(\ArithmeticError::class);
        $this->expectExceptionMessage('Decrement of key "zero" by ' . \PHP_INT_MIN . ' would overflow its value 0');
        $this->cache->decrement('zero', \PHP_INT_MIN);
    }

    public function testRemember(): void
    {
        $calls = 0;
        $compute = function () use (&$calls): array {
            ++$calls;

            return ['report' => $calls];
        };
        self::assertSame(['report' => 1], $this->cache->remember('r', $compute, 60));
        self::assertSame(['report' => 1], $this->cache->remember('r', $compute, 60));
        self::assertSame(1, $calls);
        self::assertSame(['report' => 1], $this->cache->fetch('r'));

        self::assertNull($this->cache->remember('null', fn () => null));
        self::assertTrue($this->cache->exists('null'));

        try {
            $this->cache->remember('boom', fn () => throw new \RuntimeException('boom'));
            self::fail('swallowed the exception');
        } catch (\RuntimeException $e) {
            self::assertSame('boom', $e->getMessage());
        }
        self::assertSame(2, $this->cache->remember('boom', fn () => 2));
    }

    public function testRememberOfItsOwnKeyFromItsComputeFails(): void
    {
        $cache = $this->cache;
        try {
            $cache->remember('self', fn () => $cache->remember('self', fn () => 1));
            self::fail('a nested remember() of the same key returned');
        } catch (\Error $e) {
            self::assertSame('Resident\Cache::remember(): the $compute of key "self" asked for that key itself, and would wait for its own result', $e->getMessage());
        }
        self::assertFalse($cache->exists('self'));
        self::assertSame('b+a', $cache->remember('a', fn () => $cache->remember('b', fn () => 'b') . '+a'));
        self::assertSame(1, $cache->remember('self', fn () => 1));
    }

    public function testRememberArguments(): void
    {
        $this->assertValueError('Resident\Cache::remember(): Argument #4 ($staleTtl) needs a TTL: a value that never expires is never stale', fn () => $this->cache->remember('k', fn () => 1, 0, 5));
        $this->assertValueError('Resident\Cache::remember(): Argument #4 ($staleTtl) must be greater than or equal to 0', fn () => $this->cache->remember('k', fn () => 1, 1, -1));
        $this->assertValueError('Resident\Cache::remember(): Argument #3 ($ttl) must be greater than or equal to 0', fn () => $this->cache->remember('k', fn () => 1, -1));
        try {
            $this->cache->remember('k', fn () => self::uncacheableClosure());
            self::fail('remembered a closure');
        } catch (\TypeError $e) {
            self::assertSame('Resident\Cache::remember(): Argument #2 ($compute) cannot be cached: $compute() is ' . self::codeRefusals()[0], $e->getMessage());
        }
        self::assertSame(3, $this->cache->remember('k', fn () => 3, 10, 5));
    }

    public function testKeys(): void
    {
        $this->cache->storeMultiple(['user:1' => 1, 'user:2' => 2, 'post:1' => 3]);
        $keys = $this->cache->keys('user:');
        self::assertInstanceOf(KeyIterator::class, $keys);
        $found = iterator_to_array($keys);
        sort($found);
        self::assertSame(['user:1', 'user:2'], $found);
        self::assertSame([0, 1], array_keys(iterator_to_array($this->cache->keys('user:'))));
        self::assertCount(3, iterator_to_array($this->cache->keys()));
        self::assertSame([], iterator_to_array($this->cache->keys('none:')));
    }

    public function testLifetimes(): void
    {
        $this->cache->store('short', 1, 1);
        $this->cache->add('short-add', 1, 1);
        $this->cache->storeMultiple(['short-many' => 1], 1);
        $this->cache->increment('short-counter', 1, 1);
        $this->cache->store('long', 1, 60);
        $this->cache->store('forever', 1);
        $this->cache->store('a century', 1, 100 * 366 * 86400);
        self::assertTrue($this->cache->exists('short'));
        self::assertTrue($this->cache->exists('a century'));

        usleep(2_100_000); // TTLs count in whole seconds; APCu's may run up to one more

        foreach (['short', 'short-add', 'short-many', 'short-counter'] as $key) {
            self::assertFalse($this->cache->exists($key), $key);
            self::assertSame('miss', $this->cache->fetch($key, 'miss'), $key);
        }
        self::assertSame(['long', 'forever'], array_values(array_intersect(['long', 'forever'], iterator_to_array($this->cache->keys()))));
        self::assertTrue($this->cache->add('short', 2), 'add() over an expired entry');
        self::assertSame(1, $this->cache->increment('short-counter'), 'an expired counter starts again at 0');
    }

    public function testInfoAndStatus(): void
    {
        $this->cache->store('a', 'x');
        $this->cache->fetch('a');
        $this->cache->fetch('absent');
        $info = $this->cache->info();
        foreach (['name', 'pinned', 'entries', 'memory', 'hits', 'misses', 'stores', 'deletes', 'evictions', 'expirations'] as $field) {
            self::assertArrayHasKey($field, $info);
        }
        self::assertSame('test-api', $info['name']);
        self::assertSame(1, $info['entries']);
        self::assertGreaterThanOrEqual(1, $info['hits']);
        self::assertGreaterThanOrEqual(1, $info['misses']);

        $status = Cache::status();
        self::assertTrue($status['available']);
        self::assertArrayHasKey('zero_copy', $status);
        self::assertStringContainsString('resident_up 1', Cache::metrics());
        self::assertSame(0, Cache::forgetStatics(self::class));
    }

    public function testACacheObjectIsNeitherClonedNorSerialized(): void
    {
        try {
            $copy = clone $this->cache;
            self::fail('cloned');
        } catch (\Error $e) {
            self::assertStringContainsString('Resident\Cache', $e->getMessage());
        }
        $this->expectExceptionObject(new \Exception("Serialization of 'Resident\\Cache' is not allowed"));
        serialize($this->cache);
    }

    private function assertValueError(string $message, callable $call): void
    {
        try {
            $call();
            self::fail("no ValueError: $message");
        } catch (\ValueError $e) {
            self::assertSame($message, $e->getMessage());
        }
    }
}
