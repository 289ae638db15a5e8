<?php

declare(strict_types=1);

namespace Resident\Tests\Psr6;

use PHPUnit\Framework\TestCase;
use Psr\Cache\CacheItemInterface;
use Psr\Cache\InvalidArgumentException;
use Resident\Psr6\CacheItemPool;

/** What the PSR-6 contract suite does not already check. */
final class CacheItemPoolTest extends TestCase
{
    private CacheItemPool $pool;

    protected function setUp(): void
    {
        $this->pool = new CacheItemPool('test-psr6');
        $this->pool->clear();
    }

    public function testDeferredItemsAreCommittedTogether(): void
    {
        foreach (['a' => 1, 'b' => 2, 'c' => 3] as $key => $value) {
            $this->pool->saveDeferred($this->pool->getItem($key)->set($value)->expiresAfter($key === 'c' ? 60 : null));
        }
        self::assertFalse($this->pool->pool()->exists('a'), 'not stored before commit()');
        self::assertSame(['a', 'b', 'c'], array_keys($this->pool->getItems(['a', 'b', 'c'])));
        self::assertTrue($this->pool->commit());
        self::assertSame(['a' => 1, 'b' => 2, 'c' => 3], $this->pool->pool()->fetchMultiple(['a', 'b', 'c']));
    }

    public function testGetItemsKeepsTheOrderAsked(): void
    {
        $this->pool->save($this->pool->getItem('x')->set('stored'));
        $this->pool->saveDeferred($this->pool->getItem('y')->set('deferred'));
        $items = $this->pool->getItems(['z', 'y', 'x']);
        self::assertSame(['z', 'y', 'x'], array_keys($items));
        self::assertSame([false, true, true], array_map(static fn (CacheItemInterface $i) => $i->isHit(), array_values($items)));
    }

    public function testItemsFromAnotherPoolAreRefused(): void
    {
        $foreign = $this->createMock(CacheItemInterface::class);
        self::assertFalse($this->pool->save($foreign));
        self::assertFalse($this->pool->saveDeferred($foreign));
    }

    public function testAValueThatCannotBeCachedIsAFailedSave(): void
    {
        self::assertFalse($this->pool->save($this->pool->getItem('closure')->set(fn () => 1)));
        $this->pool->saveDeferred($this->pool->getItem('ok')->set(1));
        $this->pool->saveDeferred($this->pool->getItem('closure')->set([fn () => 1]));
        self::assertFalse($this->pool->commit());
        self::assertTrue($this->pool->getItem('ok')->isHit());
        self::assertFalse($this->pool->getItem('closure')->isHit());
    }

    public function testExpiryArguments(): void
    {
        $item = $this->pool->getItem('k');
        self::assertSame($item, $item->expiresAt(new \DateTimeImmutable('+1 hour')));
        self::assertSame($item, $item->expiresAfter(new \DateInterval('PT5M')));
        $this->expectException(InvalidArgumentException::class);
        $item->expiresAfter('5 minutes');
    }

    public function testDefaultTtl(): void
    {
        $pool = new CacheItemPool('test-psr6', 1);
        $pool->save($pool->getItem('default')->set(1));
        $pool->save($pool->getItem('own')->set(1)->expiresAfter(60));
        usleep(2_100_000);
        self::assertFalse($pool->hasItem('default'));
        self::assertTrue($pool->hasItem('own'));
    }
}
