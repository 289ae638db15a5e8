<?php

declare(strict_types=1);

namespace Resident\Tests\Laravel;

use Illuminate\Cache\Repository;
use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Laravel\ResidentStore;

/**
 * Laravel has no contract suite to reuse: these follow what Laravel's own
 * tests ask of a store, through Illuminate\Cache\Repository as applications
 * use it.
 */
final class ResidentStoreTest extends TestCase
{
    private Cache $pool;

    private Repository $cache;

    protected function setUp(): void
    {
        $this->pool = Cache::pool('test-laravel');
        $this->pool->clear();
        $this->cache = new Repository(new ResidentStore($this->pool, 'app'));
    }

    public function testPutGetForget(): void
    {
        self::assertTrue($this->cache->put('k', ['v' => 1], 60));
        self::assertSame(['v' => 1], $this->cache->get('k'));
        self::assertSame(['v' => 1], $this->pool->fetch('app:k'), 'under the prefix, in the pool');
        self::assertTrue($this->cache->has('k'));
        self::assertSame('default', $this->cache->get('absent', 'default'));
        self::assertTrue($this->cache->forget('k'));
        self::assertFalse($this->cache->forget('k'));
        self::assertNull($this->cache->get('k'));
    }

    public function testManyAndPutMany(): void
    {
        self::assertTrue($this->cache->putMany(['a' => 1, 'b' => 2, '3' => 'three'], 60));
        self::assertSame(['a' => 1, 'b' => 2, 'c' => null, 3 => 'three'], $this->cache->many(['a', 'b', 'c', '3']));
        self::assertSame(['a' => 1, 'c' => 'fallback'], $this->cache->many(['a', 'c' => 'fallback']));
    }

    public function testAddIsAtomic(): void
    {
        self::assertTrue($this->cache->add('once', 1, 60));
        self::assertFalse($this->cache->add('once', 2, 60));
        self::assertSame(1, $this->cache->get('once'));
        self::assertTrue($this->cache->add('forever-once', 1));
        self::assertFalse($this->cache->add('forever-once', 2));
    }

    public function testCounters(): void
    {
        self::assertSame(1, $this->cache->increment('n'));
        self::assertSame(6, $this->cache->increment('n', 5));
        self::assertSame(4, $this->cache->decrement('n', 2));
        $this->cache->forever('s', 'text');
        self::assertFalse($this->cache->increment('s'));
    }

    public function testRememberAndPull(): void
    {
        $calls = 0;
        $compute = function () use (&$calls): string {
            return 'computed ' . ++$calls;
        };
        self::assertSame('computed 1', $this->cache->remember('r', 60, $compute));
        self::assertSame('computed 1', $this->cache->remember('r', 60, $compute));
        self::assertSame('computed 1', $this->cache->rememberForever('r', $compute));
        self::assertSame('computed 1', $this->cache->pull('r'));
        self::assertNull($this->cache->get('r'));
    }

    public function testExpiry(): void
    {
        $this->cache->put('short', 1, 1);
        $this->cache->put('long', 1, 60);
        $this->cache->forever('forever', 1);
        usleep(2_100_000);
        self::assertNull($this->cache->get('short'));
        self::assertSame(1, $this->cache->get('long'));
        self::assertSame(1, $this->cache->get('forever'));
        // Laravel's Repository deletes instead of storing with a TTL of 0 or less.
        $this->cache->put('long', 2, 0);
        self::assertNull($this->cache->get('long'));
    }

    public function testFlushEmptiesItsPrefixOnly(): void
    {
        $other = new Repository(new ResidentStore($this->pool, 'other'));
        $this->cache->put('k', 1, 60);
        $other->put('k', 2, 60);
        self::assertTrue($this->cache->flush());
        self::assertNull($this->cache->get('k'));
        self::assertSame(2, $other->get('k'));

        $unprefixed = new Repository(new ResidentStore($this->pool));
        self::assertSame('', $unprefixed->getStore()->getPrefix());
        self::assertSame('app:', $this->cache->getStore()->getPrefix());
        $unprefixed->flush();
        self::assertNull($other->get('k'), 'without a prefix, flush() empties the pool');
    }

    public function testTags(): void
    {
        $this->cache->tags(['people', 'authors'])->put('john', 'John', 60);
        $this->cache->tags('people')->put('anne', 'Anne', 60);
        self::assertSame('John', $this->cache->tags(['people', 'authors'])->get('john'));
        $this->cache->tags('authors')->flush();
        self::assertNull($this->cache->tags(['people', 'authors'])->get('john'));
        self::assertSame('Anne', $this->cache->tags('people')->get('anne'));
    }

    public function testValuesThatCannotBeCachedAreFailedWrites(): void
    {
        self::assertFalse($this->cache->put('closure', fn () => 1, 60));
        self::assertFalse($this->cache->putMany(['ok' => 1, 'closure' => [fn () => 1]], 60));
        self::assertSame(1, $this->cache->get('ok'));
    }

    public function testKeysLaravelAllowsAndTheExtensionRefuses(): void
    {
        $this->cache->put("nul\0byte", 1, 60);
        self::assertSame(1, $this->cache->get("nul\0byte"));
    }
}
