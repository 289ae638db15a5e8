<?php

declare(strict_types=1);

namespace Resident\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Component\Cache\Adapter\ChainAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;
use Symfony\Component\Cache\CacheItem;
use Symfony\Component\Cache\Psr16Cache;
use Symfony\Contracts\Cache\ItemInterface;

/** What Symfony's AdapterTestCase does not already check. */
final class ResidentAdapterTest extends TestCase
{
    private Cache $pool;

    protected function setUp(): void
    {
        $this->pool = Cache::pool('test-symfony');
        $this->pool->clear();
    }

    public function testLifetimes(): void
    {
        $adapter = new ResidentAdapter('life', 1, null, $this->pool);
        $adapter->save($adapter->getItem('default')->set(1));
        $adapter->save($adapter->getItem('short')->set(1)->expiresAfter(1));
        $adapter->save($adapter->getItem('long')->set(1)->expiresAfter(60));
        $tagged = new TagAwareAdapter(new ResidentAdapter('life-tags', 0, null, $this->pool));
        $tagged->save($tagged->getItem('tagged')->set(1)->tag('t')->expiresAfter(1));
        usleep(2_100_000);
        self::assertFalse($adapter->hasItem('default'));
        self::assertFalse($adapter->getItem('short')->isHit());
        self::assertTrue($adapter->getItem('long')->isHit());
        self::assertFalse($tagged->getItem('tagged')->isHit());
    }

    public function testGetComputesOnceAndHonoursBeta(): void
    {
        $adapter = new ResidentAdapter('get', 0, null, $this->pool);
        $calls = 0;
        $compute = function (ItemInterface $item) use (&$calls): string {
            $item->expiresAfter(3600);

            return 'computed ' . ++$calls;
        };
        self::assertSame('computed 1', $adapter->get('k', $compute));
        self::assertSame('computed 1', $adapter->get('k', $compute));
        // beta = INF: an early recomputation, always.
        self::assertSame('computed 2', $adapter->get('k', $compute, \INF));
        self::assertSame(2, $calls);
        $metadata = $adapter->getItem('k')->getMetadata();
        self::assertEqualsWithDelta(time() + 3600, $metadata[CacheItem::METADATA_EXPIRY], 2);
    }

    public function testNamespacesAreClearedOnTheirOwn(): void
    {
        $a = new ResidentAdapter('a', 0, null, $this->pool);
        $b = new ResidentAdapter('b', 0, null, $this->pool);
        $a->save($a->getItem('k')->set('a'));
        $b->save($b->getItem('k')->set('b'));
        self::assertTrue($a->clear());
        self::assertFalse($a->getItem('k')->isHit());
        self::assertSame('b', $b->getItem('k')->get());
    }

    public function testClearingWithoutANamespaceEmptiesThePool(): void
    {
        $this->pool->store('outside', 1);
        $adapter = new ResidentAdapter('', 0, null, $this->pool);
        $adapter->save($adapter->getItem('k')->set(1));
        $adapter->clear();
        self::assertFalse($this->pool->exists('outside'));
    }

    public function testANewVersionClearsTheNamespace(): void
    {
        $v1 = new ResidentAdapter('versioned', 0, 'v1', $this->pool);
        $v1->save($v1->getItem('k')->set('old'));
        self::assertTrue((new ResidentAdapter('versioned', 0, 'v1', $this->pool))->getItem('k')->isHit());
        self::assertFalse((new ResidentAdapter('versioned', 0, 'v2', $this->pool))->getItem('k')->isHit());
    }

    public function testManyKeysAreClearedInBatches(): void
    {
        $adapter = new ResidentAdapter('many', 0, null, $this->pool);
        $values = [];
        for ($i = 0; $i < 2500; ++$i) {
            $values["k$i"] = $i;
        }
        foreach ($values as $key => $value) {
            $adapter->saveDeferred($adapter->getItem($key)->set($value));
        }
        $adapter->commit();
        self::assertCount(2500, iterator_to_array($this->pool->keys('many:')));
        $adapter->clear();
        self::assertCount(0, iterator_to_array($this->pool->keys('many:')));
    }

    public function testValuesAreStoredAsTheyAre(): void
    {
        // No marshaller: a PHP array in the pool, so the extension can hand it out without a copy.
        $adapter = new ResidentAdapter('raw', 0, null, $this->pool);
        $adapter->save($adapter->getItem('routes')->set(['/' => 'home']));
        self::assertSame(['/' => 'home'], $this->pool->fetch('raw:routes'));
    }

    public function testChainWithAnArrayAdapterInFront(): void
    {
        $front = new ArrayAdapter();
        $resident = new ResidentAdapter('chain', 0, null, $this->pool);
        $chain = new ChainAdapter([$front, $resident]);
        $chain->get('k', fn () => 'value');
        self::assertTrue($resident->getItem('k')->isHit());

        // A fresh process: the front is empty, the pool is not; the chain fills the front again.
        $front->clear();
        self::assertSame('value', $chain->get('k', fn () => 'recomputed'));
        self::assertTrue($front->getItem('k')->isHit());
    }

    public function testTagInvalidation(): void
    {
        $tags = new TagAwareAdapter(new ResidentAdapter('tags', 0, null, $this->pool));
        $tags->get('product-1', function (ItemInterface $item): string {
            $item->tag(['products', 'product-1']);

            return 'one';
        });
        $tags->get('home', function (ItemInterface $item): string {
            $item->tag('pages');

            return 'home';
        });
        self::assertTrue($tags->invalidateTags(['products']));
        self::assertFalse($tags->getItem('product-1')->isHit());
        self::assertTrue($tags->getItem('home')->isHit());
    }

    public function testPsr16OverTheAdapter(): void
    {
        $psr16 = new Psr16Cache(new ResidentAdapter('psr16', 0, null, $this->pool));
        $psr16->set('k', ['v']);
        self::assertSame(['v'], $psr16->get('k'));
    }

    public function testAValueThatCannotBeCachedIsNotSaved(): void
    {
        $adapter = new ResidentAdapter('bad', 0, null, $this->pool);
        self::assertFalse($adapter->save($adapter->getItem('closure')->set(fn () => 1)));
        self::assertFalse($adapter->getItem('closure')->isHit());
    }
}
