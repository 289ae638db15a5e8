<?php

declare(strict_types=1);

namespace Resident\Tests\Psr16;

use PHPUnit\Framework\TestCase;
use Psr\SimpleCache\InvalidArgumentException;
use Resident\Cache;
use Resident\Psr16Cache;
use Resident\Psr6\CacheItemPool;

/** What the PSR-16 contract suite does not already check. */
final class Psr16CacheTest extends TestCase
{
    private Psr16Cache $cache;

    protected function setUp(): void
    {
        $this->cache = new Psr16Cache('test-psr16');
        $this->cache->clear();
    }

    public function testAStoredNullIsAHit(): void
    {
        $this->cache->set('null', null);
        self::assertTrue($this->cache->has('null'));
        self::assertNull($this->cache->get('null', 'default'));
        self::assertSame(['null' => null, 'absent' => 'default'], $this->cache->getMultiple(['null', 'absent'], 'default'));
    }

    public function testTtls(): void
    {
        self::assertTrue($this->cache->set('interval', 1, new \DateInterval('PT1H')));
        self::assertTrue($this->cache->has('interval'));

        $this->cache->set('zero', 1);
        self::assertTrue($this->cache->set('zero', 2, 0), 'a TTL of 0 deletes');
        self::assertFalse($this->cache->has('zero'));

        $this->cache->set('past', 1);
        $past = new \DateInterval('PT1S');
        $past->invert = 1;
        self::assertTrue($this->cache->set('past', 2, $past));
        self::assertFalse($this->cache->has('past'));

        $this->cache->setMultiple(['m1' => 1, 'm2' => 2]);
        self::assertTrue($this->cache->setMultiple(['m1' => 1, 'm2' => 2], -5));
        self::assertFalse($this->cache->has('m1'));

        self::assertTrue($this->cache->set('huge', 1, \PHP_INT_MAX), 'a TTL past the clock is "forever"');
        self::assertTrue($this->cache->has('huge'));
    }

    public function testDefaultTtl(): void
    {
        $cache = new Psr16Cache('test-psr16', 1);
        $cache->set('default', 1);
        $cache->set('own', 1, 60);
        usleep(2_100_000);
        self::assertFalse($cache->has('default'));
        self::assertTrue($cache->has('own'));
    }

    public function testKeysTheExtensionRefusesAreStillValidPsr16Keys(): void
    {
        $keys = ["nul\0byte", str_repeat('long', 2000)];
        foreach ($keys as $key) {
            self::assertTrue($this->cache->set($key, $key));
        }
        self::assertSame(array_combine($keys, $keys), $this->cache->getMultiple($keys));
    }

    public function testAValueThatCannotBeCachedIsAFailedWrite(): void
    {
        self::assertFalse($this->cache->set('closure', fn () => 1));
        self::assertFalse($this->cache->has('closure'));
        self::assertFalse($this->cache->setMultiple(['ok' => 1, 'closure' => [fn () => 1]]));
        self::assertSame(1, $this->cache->get('ok'), 'the other values are still stored');
    }

    public function testInvalidKeysInIterables(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->cache->getMultiple((static function () {
            yield 'fine';
            yield 'not:fine';
        })());
    }

    public function testItSharesItsPoolWithPsr6(): void
    {
        $pool = Cache::pool('test-psr16');
        $this->cache->set('shared', ['v' => 1]);
        self::assertSame(['v' => 1], $pool->fetch('shared'));
        $item = (new CacheItemPool($pool))->getItem('shared');
        self::assertTrue($item->isHit());
        self::assertSame(['v' => 1], $item->get());
        self::assertSame('test-psr16', $this->cache->pool()->name());
    }
}
