<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use Resident\Tests\Contract\Psr6\PoolContract;
use Symfony\Component\Cache\Adapter\AdapterInterface;
use Symfony\Component\Cache\CacheItem;
use Symfony\Contracts\Cache\CacheInterface;
use Symfony\Contracts\Cache\CallbackInterface;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * What symfony/cache 7.x asks of an adapter on top of PSR-6, as its
 * AdapterTestCase checks it, in this project's own tests: the contracts'
 * get() with its callback, early expiration and $save, item metadata,
 * clear() of a key prefix, values that fail to come back, and keys PSR-6
 * would refuse but Symfony's adapters take internally.
 *
 * Not here: prune() (a pool that reclaims expired entries itself is not
 * PruneableInterface, and Symfony skips the test for those).
 */
abstract class AdapterContract extends PoolContract
{
    /** @return AdapterInterface&CacheInterface */
    abstract protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface;

    private function adapter(int $defaultLifetime = 0): AdapterInterface&CacheInterface
    {
        $pool = $this->createPool($defaultLifetime);
        self::assertInstanceOf(CacheInterface::class, $pool);

        return $pool;
    }

    // get() with a callback

    public function testGetComputesOnMissThenReturnsTheSavedValue(): void
    {
        $cache = $this->adapter();
        $value = random_int(1, \PHP_INT_MAX);
        $keys = [];
        self::assertSame($value, $cache->get('foo', function (CacheItem $item) use ($value, &$keys): int {
            $keys[] = $item->getKey();

            return $value;
        }));
        self::assertSame(['foo'], $keys, 'the callback is given the item of the key asked');
        self::assertSame($value, $cache->getItem('foo')->get());
        self::assertSame($value, $cache->get('foo', fn (): int => self::fail('computed again on a hit')));
    }

    public function testABetaOfZeroNeverRecomputesAndInfinityAlwaysDoes(): void
    {
        $cache = $this->adapter();
        $cache->get('foo', fn (): string => 'stored');
        self::assertSame('stored', $cache->get('foo', fn (): string => self::fail('recomputed with beta 0'), 0));
        $seen = null;
        $result = $cache->get('foo', function (CacheItem $item) use (&$seen): mixed {
            $seen = [$item->isHit(), $item->get()];

            return null;
        }, \INF);
        self::assertSame([true, 'stored'], $seen, 'the recompute sees the item as it is');
        self::assertNull($result);
        self::assertTrue($cache->getItem('foo')->isHit(), 'a computed null is saved like any value');
        self::assertNull($cache->getItem('foo')->get());
    }

    public function testGetTakesACallbackObject(): void
    {
        $callback = new class implements CallbackInterface {
            /** @var list<string> */
            public array $keys = [];

            public function __invoke(CacheItemInterface $item, bool &$save): mixed
            {
                $this->keys[] = $item->getKey();

                return 'from an object';
            }
        };
        self::assertSame('from an object', $this->adapter()->get('bar', $callback));
        self::assertSame(['bar'], $callback->keys);
    }

    public function testAGetInsideAGetComputesTheInnerKeyOnce(): void
    {
        $cache = $this->adapter();
        $computed = 0;
        $inner = function () use (&$computed): int {
            return ++$computed;
        };
        $outer = $cache->get('k1', function () use ($cache, $inner): int {
            $cache->get('k2', $inner);

            return $cache->get('k2', $inner);
        });
        self::assertSame(1, $computed);
        self::assertSame(1, $outer);
        self::assertSame(1, $cache->get('k2', fn (): int => 2));
    }

    public function testACallbackThatSetsSaveToFalseIsNotSaved(): void
    {
        $cache = $this->adapter();
        self::assertSame(1, $cache->get('some-key', function (ItemInterface $item, bool &$save): int {
            $save = false;

            return 1;
        }));
        self::assertSame(2, $cache->get('some-key', fn (): int => 2), 'the first value was not saved');
        self::assertSame(2, $cache->get('some-key', fn (): int => self::fail('the second value was saved')));
    }

    // Metadata

    public function testItemsCarryHowLongTheyTookToComputeAndWhenTheyExpire(): void
    {
        $cache = $this->adapter();
        $before = microtime(true);
        $cache->get('foo', function (ItemInterface $item): string {
            $item->expiresAfter(10);
            usleep(200_000);

            return 'bar';
        });
        $after = microtime(true);
        $metadata = $cache->getItem('foo')->getMetadata();
        // Bounds measured around the compute: exact whatever the machine's load.
        self::assertArrayHasKey(CacheItem::METADATA_CTIME, $metadata);
        self::assertGreaterThanOrEqual(200, $metadata[CacheItem::METADATA_CTIME], 'milliseconds the callback took');
        self::assertLessThanOrEqual((int) ceil(($after - $before) * 1000), $metadata[CacheItem::METADATA_CTIME]);
        self::assertArrayHasKey(CacheItem::METADATA_EXPIRY, $metadata);
        self::assertGreaterThanOrEqual(floor($before) + 10, ceil($metadata[CacheItem::METADATA_EXPIRY]));
        self::assertLessThanOrEqual(ceil($after) + 10, $metadata[CacheItem::METADATA_EXPIRY]);
    }

    // Lifetimes

    public function testTheDefaultLifetimeAppliesToItemsWithoutTheirOwn(): void
    {
        $cache = $this->createPool(self::SHORT);
        $cache->save($cache->getItem('default')->set('v'));
        $cache->save($cache->getItem('own')->set('v')->expiresAfter(3600));
        $cache->save($cache->getItem('a-year')->set('v')->expiresAfter(366 * 86400));
        self::assertTrue($cache->getItem('default')->isHit());
        self::waitPast(self::SHORT);
        $expired = $cache->getItem('default');
        self::assertFalse($expired->isHit());
        self::assertNull($expired->get());
        self::assertTrue($cache->getItem('own')->isHit());
        self::assertSame('v', $cache->getItem('a-year')->get(), 'a lifetime over a year is kept');
    }

    // Clearing

    public function testClearWithAPrefixDropsTheKeysThatStartWithIt(): void
    {
        $cache = $this->adapter();
        $cache->save($cache->getItem('foobar')->set(1));
        $cache->save($cache->getItem('barfoo')->set(2));
        $cache->clear('foo');
        self::assertFalse($cache->hasItem('foobar'));
        self::assertTrue($cache->hasItem('barfoo'));
    }

    // Values and keys beyond PSR-6

    public function testAValueThatFailsToComeBackIsAMiss(): void
    {
        $cache = $this->adapter();
        $cache->save($cache->getItem('foo')->set(new ThrowsOnWakeup()));
        self::assertFalse($cache->getItem('foo')->isHit());
        foreach ($cache->getItems(['foo']) as $item) {
            self::assertFalse($item->isHit());
        }
        $cache->save($item->set(new ThrowsOnWakeup()));
        foreach ($cache->getItems(['foo', 'other']) as $item) {
            self::assertFalse($item->isHit());
        }
    }

    public function testDataShapedLikeTheAdaptersMetadataWrapperIsAPlainValue(): void
    {
        // One element under a ten-digit key: the shape Symfony wraps values with metadata in.
        $cache = $this->adapter();
        $cache->save($cache->getItem('foobar')->set([1234567890 => [1]]));
        self::assertTrue($cache->hasItem('foobar'));
        self::assertSame([1234567890 => [1]], $cache->getItem('foobar')->get());
    }

    public function testAKeyWithANulByte(): void
    {
        $cache = $this->adapter();
        $cache->save($cache->getItem("a\0b")->set(123));
        self::assertSame(123, $cache->getItem("a\0b")->get());
        self::assertFalse($cache->getItem('a')->isHit());
    }

    public function testNumericKeysPastTheAdaptersIdCache(): void
    {
        // Symfony's adapters memoise key ids and reset the memo past 1000 keys.
        $cache = $this->adapter();
        for ($i = 0; $i < 1001; ++$i) {
            $cache->save($cache->getItem((string) $i)->set("value-$i"));
        }
        self::assertSame('value-50', $cache->getItem('50')->get());
        self::assertSame('value-1000', $cache->getItem('1000')->get());
    }
}
