<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

use Psr\Cache\InvalidArgumentException;
use Symfony\Component\Cache\Adapter\TagAwareAdapterInterface;
use Symfony\Component\Cache\CacheItem;

/**
 * What symfony/cache 7.x asks of a tag-aware pool, as its
 * TagAwareTestTrait checks it, in this project's own tests. For a test
 * class whose createPool() gives a TagAwareAdapterInterface.
 */
trait TagAwareContract
{
    private function tagged(int $defaultLifetime = 0): TagAwareAdapterInterface
    {
        $pool = $this->createPool($defaultLifetime);
        self::assertInstanceOf(TagAwareAdapterInterface::class, $pool);

        return $pool;
    }

    public function testATagWithAReservedCharacterIsRefused(): void
    {
        $item = $this->tagged()->getItem('foo');
        $this->expectException(InvalidArgumentException::class);
        $item->tag(':');
    }

    public function testInvalidatingATagDropsTheItemsTaggedWithItOnly(): void
    {
        $pool = $this->tagged();
        $pool->save($pool->getItem('i0')->tag('bar'));
        $pool->save($pool->getItem('i1')->tag('foo'));
        $pool->save($pool->getItem('i2')->tag('foo')->tag('bar'));
        $pool->save($pool->getItem('i3')->tag(['foo', 'baz']));
        $pool->save($pool->getItem('untagged'));

        self::assertTrue($pool->invalidateTags(['bar']));
        $hits = static fn ($pool): array => array_map(static fn (string $k): bool => $pool->getItem($k)->isHit(), ['i0', 'i1', 'i2', 'i3', 'untagged']);
        self::assertSame([false, true, false, true, true], $hits($pool));

        $pool->invalidateTags(['foo']);
        self::assertSame([false, false, false, false, true], $hits($pool));
        self::assertSame([false, false, false, false, true], $hits($this->tagged()), 'another instance sees the invalidation');
    }

    public function testInvalidatingCommitsDeferredItemsFirst(): void
    {
        $pool = $this->tagged();
        $pool->saveDeferred($pool->getItem('foo')->tag('tag')->set('foo'));
        $pool->invalidateTags(['tag']);
        // A save deferred before the invalidation is not undone by it.
        self::assertTrue($pool->getItem('foo')->isHit());
    }

    public function testSavingAgainReplacesTheTags(): void
    {
        $pool = $this->tagged();
        $pool->save($pool->getItem('k')->tag('foo'));
        $pool->save($pool->getItem('k')->tag('bar'));
        $pool->invalidateTags(['foo']);
        self::assertTrue($pool->getItem('k')->isHit());
    }

    public function testDeletingDropsTheTags(): void
    {
        $pool = $this->tagged();
        $pool->save($pool->getItem('k')->tag('foo'));
        $pool->deleteItem('k');
        $pool->save($pool->getItem('k'));
        $pool->invalidateTags(['foo']);
        self::assertTrue($pool->getItem('k')->isHit());
    }

    public function testTheTagsAreInTheItemsMetadata(): void
    {
        $pool = $this->tagged();
        $item = $pool->getItem('k');
        self::assertSame([], $item->getMetadata());
        $pool->save($item->tag('foo'));
        self::assertSame(['foo' => 'foo'], $item->getMetadata()[CacheItem::METADATA_TAGS]);
        self::assertSame(['foo' => 'foo'], $pool->getItem('k')->getMetadata()[CacheItem::METADATA_TAGS]);
    }

    public function testTaggedItemsExpireAndCanBeSavedAgainAfterwards(): void
    {
        $pool = $this->tagged(3600);
        $pool->save($pool->getItem('invalidated')->tag('baz')->expiresAfter(3600));
        $pool->invalidateTags(['baz']);
        $pool->save($pool->getItem('expiring')->set('v')->tag('1234')->expiresAfter(self::SHORT));
        self::assertTrue($pool->getItem('expiring')->isHit());
        self::waitPast(self::SHORT);
        $item = $pool->getItem('expiring');
        self::assertFalse($item->isHit());
        self::assertFalse($pool->getItem('invalidated')->isHit(), 'an invalidated item does not come back');
        $pool->save($item->set('again')->tag('1234')->expiresAfter(3600));
        self::assertSame('again', $pool->getItem('expiring')->get());
    }
}
