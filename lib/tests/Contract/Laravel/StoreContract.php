<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Laravel;

use Illuminate\Cache\Repository;
use Illuminate\Cache\TaggableStore;
use Illuminate\Contracts\Cache\Store;
use PHPUnit\Framework\TestCase;
use Resident\Tests\Contract\Expiry;

/**
 * What Laravel 11 asks of a cache store, as its own tests check its stores
 * (tests/Cache/CacheArrayStoreTest, CacheTaggedCacheTest, and the Redis and
 * Memcached integration tests), in this project's own tests: directly on
 * the store, and through Illuminate\Cache\Repository as applications use it.
 *
 * Where Laravel's stores differ, the store follows the shared-memory stores
 * (APCu, Memcached): increment() of a value that is not a number is false.
 */
abstract class StoreContract extends TestCase
{
    use Expiry;

    protected Store $store;

    protected Repository $cache;

    /** A store over storage that the test may flush; every call gives a new instance over the same storage. */
    abstract protected function createStore(): Store;

    protected function setUp(): void
    {
        $this->store = $this->createStore();
        $this->store->flush();
        $this->cache = new Repository($this->createStore());
    }

    protected function tearDown(): void
    {
        if (isset($this->store)) {
            $this->store->flush();
        }
    }

    // Single items

    public function testPutThenGet(): void
    {
        self::assertTrue($this->store->put('foo', 'bar', 10));
        self::assertSame('bar', $this->store->get('foo'));
        self::assertSame('bar', $this->createStore()->get('foo'));
    }

    public function testAMissingKeyIsNull(): void
    {
        self::assertNull($this->store->get('never-put'));
        self::assertSame('default', $this->cache->get('never-put', 'default'));
    }

    public function testForeverStoresWithoutExpiry(): void
    {
        self::assertTrue($this->store->forever('foo', 'bar'));
        self::assertSame('bar', $this->store->get('foo'));
    }

    public function testForgetSaysWhetherThereWasSomethingToForget(): void
    {
        $this->store->put('foo', 'bar', 10);
        self::assertTrue($this->store->forget('foo'));
        self::assertNull($this->store->get('foo'));
        self::assertFalse($this->store->forget('foo'));
    }

    public function testFlushEmptiesTheStore(): void
    {
        $this->store->put('foo', 'bar', 10);
        $this->store->put('baz', 'boom', 10);
        self::assertTrue($this->store->flush());
        self::assertNull($this->store->get('foo'));
        self::assertNull($this->store->get('baz'));
    }

    public function testAValueChangedAfterPutIsNotChangedInTheStore(): void
    {
        $object = new \stdClass();
        $object->foo = true;
        $this->store->put('object', $object, 10);
        $object->bar = true;
        $stored = $this->store->get('object');
        self::assertTrue($stored->foo);
        self::assertFalse(property_exists($stored, 'bar'));
    }

    public function testInfinitiesAndNanAreStored(): void
    {
        self::assertTrue($this->cache->put('inf', \INF));
        self::assertTrue($this->cache->put('-inf', -\INF));
        self::assertTrue($this->cache->put('nan', \NAN));
        self::assertSame(\INF, $this->cache->get('inf'));
        self::assertSame(-\INF, $this->cache->get('-inf'));
        self::assertNan($this->cache->get('nan'));
    }

    public function testAZeroTtlThroughTheRepositoryRemovesTheItem(): void
    {
        self::assertTrue($this->cache->put('foo', 10, 10));
        self::assertTrue($this->cache->put('foo', 10, 0));
        self::assertNull($this->cache->get('foo'));
    }

    public function testAddStoresOnlyWhenAbsent(): void
    {
        self::assertTrue($this->cache->add('once', 1, 60));
        self::assertFalse($this->cache->add('once', 2, 60));
        self::assertSame(1, $this->cache->get('once'));
    }

    // Many items

    public function testPutManyThenManyGivesNullForMissingKeys(): void
    {
        self::assertTrue($this->store->put('foo', 'bar', 10));
        self::assertTrue($this->store->putMany(['fizz' => 'buz', 'quz' => 'baz'], 10));
        self::assertSame(['foo' => 'bar', 'fizz' => 'buz', 'quz' => 'baz', 'norf' => null],
            $this->store->many(['foo', 'fizz', 'quz', 'norf']));
    }

    public function testManyThroughTheRepositoryTakesDefaults(): void
    {
        $this->cache->put('a', 1, 60);
        self::assertSame(['a' => 1, 'b' => 'fallback', 'c' => null], $this->cache->many(['a', 'b' => 'fallback', 'c']));
    }

    // Counters

    public function testIncrementAndDecrementAnInteger(): void
    {
        $this->store->put('foo', 1, 10);
        self::assertSame(2, $this->store->increment('foo'));
        self::assertSame(2, $this->store->get('foo'));
        self::assertSame(4, $this->store->increment('foo', 2));
        self::assertSame(3, $this->store->decrement('foo'));
        self::assertSame(-2, $this->store->decrement('foo', 5));
        self::assertSame(-2, $this->store->get('foo'));
    }

    public function testAnIntegerHeldAsAStringIsCountedFrom(): void
    {
        $this->store->put('foo', '1', 10);
        self::assertSame(2, $this->store->increment('foo'));
        self::assertSame(2, $this->store->get('foo'));
        $this->store->put('bar', '1', 10);
        self::assertSame(0, $this->store->decrement('bar'));
        self::assertSame(0, $this->store->get('bar'));
        $this->store->put('five', '5', 10);
        self::assertSame(6, $this->cache->increment('five'));
        self::assertSame(11, $this->cache->increment('five', '5'), 'a step given as a string');
    }

    public function testAMissingKeyCountsFromZeroWithoutExpiry(): void
    {
        self::assertSame(1, $this->store->increment('up'));
        self::assertSame(1, $this->store->get('up'));
        self::assertSame(-10, $this->store->decrement('down', 10));
    }

    public function testAValueThatIsNotANumberIsNotCounted(): void
    {
        $this->store->put('text', 'I am string', 10);
        self::assertFalse($this->store->increment('text'));
        self::assertFalse($this->store->decrement('text'));
        self::assertSame('I am string', $this->store->get('text'));
        $this->store->put('float', 1.5, 10);
        self::assertFalse($this->store->increment('float'));
    }

    // Prefix

    public function testGetPrefixIsAString(): void
    {
        self::assertIsString($this->store->getPrefix());
    }

    // Lifetimes

    public function testItemsExpireAndExpiredCountersStartAgain(): void
    {
        $this->store->put('short', 'bar', self::SHORT);
        $this->store->put('counter', 999, self::SHORT);
        $this->store->put('long', 'bar', 3600);
        $this->store->forever('forever', 'bar');
        self::waitPast(self::SHORT);
        self::assertNull($this->store->get('short'));
        self::assertSame(1, $this->store->increment('counter'), 'an expired counter counts like a missing one');
        self::assertSame('bar', $this->store->get('long'));
        self::assertSame('bar', $this->store->get('forever'));
    }

    // Tags (for a TaggableStore)

    private function tags(string|array $names): \Illuminate\Cache\TaggedCache
    {
        if (!$this->store instanceof TaggableStore) {
            self::markTestSkipped('not a TaggableStore');
        }

        return $this->cache->tags($names);
    }

    public function testTaggedItemsAreReadWithTheSameTags(): void
    {
        $this->tags(['bop', 'zap'])->put('foo', 'bar', 10);
        self::assertSame('bar', $this->tags(['bop', 'zap'])->get('foo'));
        $this->tags('bop')->forever('always', 'here');
        self::assertSame('here', $this->tags('bop')->get('always'));
        $this->tags('bop')->put('when', 'then', new \DateTime('+10 seconds'));
        self::assertSame('then', $this->tags('bop')->get('when'));
    }

    public function testFlushingATagDropsItsItemsOnly(): void
    {
        $this->tags(['people', 'authors'])->put('john', 'John', 60);
        $this->tags('people')->put('anne', 'Anne', 60);
        $this->tags('people')->increment('count', 3);
        $this->tags('authors')->flush();
        self::assertNull($this->tags(['people', 'authors'])->get('john'));
        self::assertSame('Anne', $this->tags('people')->get('anne'));
        $this->tags('people')->flush();
        self::assertNull($this->tags('people')->get('anne'));
        self::assertNull($this->tags('people')->get('count'), 'counters go with their tag');
    }

    public function testTaggedCounters(): void
    {
        $tagged = $this->tags('bop');
        $tagged->put('foo', 5, 10);
        self::assertSame(6, $tagged->increment('foo'));
        self::assertSame(9, $tagged->increment('foo', 3));
        self::assertSame(7, $tagged->increment('foo', -2));
        self::assertSame(6, $tagged->decrement('foo'));
        self::assertSame(8, $tagged->decrement('foo', -2));
        self::assertSame(1, $tagged->increment('x'));
        self::assertSame(-10, $tagged->decrement('y', 10));
    }

    public function testTaggedManyAndGetMultiple(): void
    {
        $tagged = $this->tags(['a', 'b']);
        $tagged->putMany(['k1' => 'v1', 'k2' => 'v2'], 10);
        self::assertSame(['k1' => 'v1', 'k2' => 'v2', 'k3' => null], $tagged->many(['k1', 'k2', 'k3']));
        self::assertSame(['k1' => 'v1', 'k3' => 'default'], $tagged->many(['k1', 'k3' => 'default']));
        self::assertSame(['k2' => 'v2', 'k4' => 'fallback'], $tagged->getMultiple(['k2', 'k4'], 'fallback'));
    }
}
