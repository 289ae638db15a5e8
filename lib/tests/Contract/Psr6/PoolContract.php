<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Psr6;

use PHPUnit\Framework\TestCase;
use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use Psr\Cache\InvalidArgumentException;
use Resident\Tests\Contract\Expiry;

/**
 * What PSR-6 asks of a pool, as the current php-cache/integration-tests
 * (CachePoolTest) checks it, in this project's own tests. Each section
 * names the behaviour; a pool passes by being given to createPool().
 *
 * Extended by the Symfony adapter's contract, as Symfony's AdapterTestCase
 * extends the PSR-6 suite: every PSR-6 behaviour is checked over
 * Resident\Psr6\CacheItemPool and over each Symfony adapter.
 */
abstract class PoolContract extends TestCase
{
    use Expiry;

    protected CacheItemPoolInterface $pool;

    /** A pool over storage that the test may clear; every call gives a new instance over the same storage. */
    abstract protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface;

    protected function setUp(): void
    {
        $this->pool = $this->createPool();
        $this->pool->clear();
    }

    protected function tearDown(): void
    {
        if (isset($this->pool)) {
            $this->pool->clear();
        }
    }

    private function saved(string $key, mixed $value): CacheItemInterface
    {
        $item = $this->pool->getItem($key)->set($value);
        self::assertTrue($this->pool->save($item), "save() of $key");

        return $item;
    }

    // Reading and writing items

    public function testASavedItemIsAHitWithItsValueAndKey(): void
    {
        $this->saved('one', 'first');
        $item = $this->pool->getItem('one');
        self::assertTrue($item->isHit());
        self::assertSame('first', $item->get());
        self::assertSame('one', $item->getKey());
        self::assertTrue($this->pool->hasItem('one'));
    }

    public function testAMissingItemIsAMissWithANullValueAndItsKey(): void
    {
        $item = $this->pool->getItem('never-saved');
        self::assertFalse($item->isHit());
        self::assertNull($item->get());
        self::assertSame('never-saved', $item->getKey());
        self::assertFalse($this->pool->hasItem('never-saved'));
    }

    public function testSettersReturnTheItemItself(): void
    {
        $item = $this->pool->getItem('fluent');
        self::assertSame($item, $item->set('v'));
        self::assertSame($item, $item->expiresAfter(60));
        self::assertSame($item, $item->expiresAfter(new \DateInterval('PT1M')));
        self::assertSame($item, $item->expiresAfter(null));
        self::assertSame($item, $item->expiresAt(new \DateTimeImmutable('+1 hour')));
        self::assertSame($item, $item->expiresAt(null));
    }

    public function testSavingAgainReplacesTheValue(): void
    {
        $this->saved('k', 'old');
        $this->saved('k', 'new');
        self::assertSame('new', $this->pool->getItem('k')->get());
    }

    public function testAnItemSavedWithoutExpiryIsSeenByAnotherInstance(): void
    {
        $this->saved('shared', 'across instances');
        $other = $this->createPool();
        self::assertTrue($other->getItem('shared')->isHit());
        self::assertSame('across instances', $other->getItem('shared')->get());
    }

    public function testGetItemsReturnsEveryKeyAskedWithItsHitFlag(): void
    {
        $this->saved('a', 1);
        $this->saved('b', 2);
        $seen = [];
        foreach ($this->pool->getItems(['a', 'b', 'absent']) as $key => $item) {
            self::assertSame($key, $item->getKey());
            $seen[$key] = [$item->isHit(), $item->get()];
        }
        self::assertSame(['a' => [true, 1], 'b' => [true, 2], 'absent' => [false, null]], $seen);
    }

    public function testGetItemsOfNoKeysIsEmpty(): void
    {
        self::assertSame([], iterator_to_array((fn () => yield from $this->pool->getItems([]))()));
    }

    public function testGetItemsKeepsNumericKeysStrings(): void
    {
        $this->saved('42', 'answer');
        $seen = [];
        foreach ($this->pool->getItems(['42', '7', 'x']) as $key => $item) {
            $seen[] = [$key, $item->getKey(), $item->isHit()];
        }
        self::assertSame([['42', '42', true], ['7', '7', false], ['x', 'x', false]], $seen);
    }

    // Deleting and clearing

    public function testDeleteItemRemovesOnlyThatItemAndSaysTrueEvenWhenAbsent(): void
    {
        $this->saved('gone', 1);
        $this->saved('kept', 2);
        self::assertTrue($this->pool->deleteItem('gone'));
        self::assertFalse($this->pool->getItem('gone')->isHit());
        self::assertFalse($this->pool->hasItem('gone'));
        self::assertTrue($this->pool->getItem('kept')->isHit());
        self::assertTrue($this->pool->deleteItem('never-saved'));
    }

    public function testDeleteItemsRemovesTheNamedItemsOnly(): void
    {
        foreach (['foo', 'bar', 'baz'] as $key) {
            $this->saved($key, $key);
        }
        self::assertTrue($this->pool->deleteItems(['foo', 'bar', 'never-saved']));
        self::assertFalse($this->pool->hasItem('foo'));
        self::assertFalse($this->pool->hasItem('bar'));
        self::assertTrue($this->pool->hasItem('baz'));
    }

    public function testClearEmptiesThePoolAndSaysTrue(): void
    {
        $this->saved('a', 1);
        $this->saved('b', 2);
        self::assertTrue($this->pool->clear());
        self::assertFalse($this->pool->getItem('a')->isHit());
        self::assertFalse($this->pool->hasItem('b'));
    }

    // Deferred saves

    public function testADeferredItemIsAHitBeforeAndAfterCommit(): void
    {
        self::assertTrue($this->pool->saveDeferred($this->pool->getItem('d1')->set('one')));
        $this->pool->saveDeferred($this->pool->getItem('d2')->set('two'));
        self::assertTrue($this->pool->hasItem('d1'));
        self::assertSame('one', $this->pool->getItem('d1')->get());
        self::assertTrue($this->pool->getItem('d2')->isHit());
        self::assertTrue($this->pool->commit());
        self::assertSame('one', $this->createPool()->getItem('d1')->get());
        self::assertSame('two', $this->createPool()->getItem('d2')->get());
    }

    public function testCommitWithNothingDeferredSaysTrue(): void
    {
        self::assertTrue($this->pool->commit());
    }

    public function testChangingTheItemGotAfterSaveDeferredDoesNotChangeWhatIsSaved(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('deferred'));
        $this->pool->getItem('k')->set('changed on the item got back');
        self::assertSame('deferred', $this->pool->getItem('k')->get());
        $this->pool->commit();
        self::assertSame('deferred', $this->pool->getItem('k')->get());
    }

    public function testASecondSaveDeferredOfAKeyWins(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('first'));
        $this->pool->saveDeferred($this->pool->getItem('k')->set('second'));
        self::assertSame('second', $this->pool->getItem('k')->get());
        $this->pool->commit();
        self::assertSame('second', $this->pool->getItem('k')->get());
    }

    public function testSaveAfterSaveDeferredOfTheSameKeyWins(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('deferred'));
        $this->saved('k', 'immediate');
        self::assertSame('immediate', $this->pool->getItem('k')->get());
        $this->pool->commit();
        self::assertSame('immediate', $this->pool->getItem('k')->get());
        self::assertSame('immediate', $this->createPool()->getItem('k')->get());
    }

    public function testADeferredItemCanBeDeletedBeforeCommitAndStaysDeleted(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('v'));
        self::assertTrue($this->pool->getItem('k')->isHit());
        $this->pool->deleteItem('k');
        self::assertFalse($this->pool->hasItem('k'));
        self::assertFalse($this->pool->getItem('k')->isHit());
        $this->pool->commit();
        self::assertFalse($this->pool->hasItem('k'));
    }

    public function testClearDropsDeferredItems(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('v'));
        $this->pool->clear();
        $this->pool->commit();
        self::assertFalse($this->pool->getItem('k')->isHit());
    }

    public function testDeferredItemsAreCommittedWhenThePoolIsDestroyed(): void
    {
        $pool = $this->createPool();
        $pool->saveDeferred($pool->getItem('k')->set('committed by the destructor'));
        unset($pool);
        gc_collect_cycles();
        self::assertSame('committed by the destructor', $this->createPool()->getItem('k')->get());
    }

    public function testAnAlreadyExpiredDeferredItemIsNeitherAHitNorSaved(): void
    {
        $this->pool->saveDeferred($this->pool->getItem('k')->set('v')->expiresAt(new \DateTimeImmutable('-1 second')));
        self::assertFalse($this->pool->hasItem('k'));
        $this->pool->commit();
        self::assertFalse($this->pool->getItem('k')->isHit());
    }

    // Expiry

    public function testItemsWithAFutureOrNoExpiryAreHits(): void
    {
        $this->pool->save($this->pool->getItem('at')->set(1)->expiresAt(new \DateTime('+2 hours')));
        $this->pool->save($this->pool->getItem('after')->set(1)->expiresAfter(7200));
        $this->pool->save($this->pool->getItem('at-null')->set(1)->expiresAt(null));
        $this->pool->save($this->pool->getItem('after-null')->set(1)->expiresAfter(null));
        foreach (['at', 'after', 'at-null', 'after-null'] as $key) {
            self::assertTrue($this->pool->getItem($key)->isHit(), $key);
        }
    }

    public function testSavingAnItemWithAPastExpiryRemovesIt(): void
    {
        $item = $this->saved('k', 'v');
        $item->expiresAt(new \DateTimeImmutable('@' . (time() - 1)));
        $this->pool->save($item);
        self::assertFalse($this->pool->getItem('k')->isHit());
        self::assertFalse($this->pool->hasItem('k'));
    }

    public function testItemsExpire(): void
    {
        $this->pool->save($this->pool->getItem('after')->set('v')->expiresAfter(self::SHORT));
        $this->pool->save($this->pool->getItem('at')->set('v')->expiresAt(new \DateTimeImmutable('+' . self::SHORT . ' second')));
        $this->pool->save($this->pool->getItem('long')->set('v')->expiresAfter(3600));
        $this->pool->saveDeferred($this->pool->getItem('deferred')->set('v')->expiresAfter(self::SHORT));
        self::waitPast(self::SHORT);
        foreach (['after', 'at'] as $key) {
            $item = $this->pool->getItem($key);
            self::assertFalse($item->isHit(), $key);
            self::assertNull($item->get(), "$key: a miss has a null value");
        }
        self::assertFalse($this->pool->hasItem('deferred'), 'a deferred item expires before commit too');
        self::assertTrue($this->pool->getItem('long')->isHit());
    }

    // Keys

    /** @return list<array{string}> */
    public static function validKeys(): array
    {
        return [
            ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.'],
            [str_repeat('a', 300)],
            ['0'],
            ['12345'],
        ];
    }

    /** @dataProvider validKeys */
    public function testValidKeysRoundTrip(string $key): void
    {
        $item = $this->pool->getItem($key);
        self::assertFalse($item->isHit());
        self::assertSame($key, $item->getKey());
        self::assertTrue($this->pool->save($item->set('value')));
        self::assertTrue($this->pool->hasItem($key));
        $item = $this->pool->getItem($key);
        self::assertTrue($item->isHit());
        self::assertSame($key, $item->getKey());
        self::assertSame('value', $item->get());
        self::assertTrue($this->pool->deleteItem($key));
        self::assertFalse($this->pool->getItem($key)->isHit());
    }

    /** @return list<array{string}> keys with a character PSR-6 reserves */
    public static function reservedKeys(): array
    {
        return array_map(static fn (string $c): array => ["key{$c}x"], str_split('{}()/\@:'));
    }

    /** @return list<array{mixed}> keys that are not strings */
    public static function nonStringKeys(): array
    {
        return [[true], [false], [null], [2], [2.5], [new \stdClass()], [['array']]];
    }

    /** @return array<string, \Closure(CacheItemPoolInterface, mixed): mixed> each method that takes keys, by name */
    private static function keyMethods(): array
    {
        return [
            'getItem' => static fn (CacheItemPoolInterface $p, mixed $k) => $p->getItem($k),
            'getItems' => static fn (CacheItemPoolInterface $p, mixed $k) => $p->getItems(['key1', $k, 'key2']),
            'hasItem' => static fn (CacheItemPoolInterface $p, mixed $k) => $p->hasItem($k),
            'deleteItem' => static fn (CacheItemPoolInterface $p, mixed $k) => $p->deleteItem($k),
            'deleteItems' => static fn (CacheItemPoolInterface $p, mixed $k) => $p->deleteItems(['key1', $k, 'key2']),
        ];
    }

    /** @dataProvider reservedKeys */
    public function testEveryMethodRefusesReservedCharacters(string $key): void
    {
        foreach (self::keyMethods() as $method => $call) {
            try {
                $call($this->pool, $key);
                self::fail("$method() took the key $key");
            } catch (InvalidArgumentException) {
                $this->addToAssertionCount(1);
            }
        }
    }

    /** @dataProvider nonStringKeys */
    public function testEveryMethodRefusesKeysThatAreNotStrings(mixed $key): void
    {
        foreach (self::keyMethods() as $method => $call) {
            try {
                $call($this->pool, $key);
                self::fail("$method() took a key of type " . get_debug_type($key));
            } catch (InvalidArgumentException|\TypeError) {
                $this->addToAssertionCount(1);
            }
        }
    }

    public function testDeleteItemsChecksEveryKeyBeforeDeletingAny(): void
    {
        $this->saved('key1', 'v');
        try {
            $this->pool->deleteItems(['key1', 'invalid{key']);
            self::fail('deleteItems() took an invalid key');
        } catch (InvalidArgumentException) {
            self::assertTrue($this->pool->hasItem('key1'));
        }
    }

    // Values

    /** @return array<string, array{mixed}> */
    public static function values(): array
    {
        $object = new \stdClass();
        $object->a = 'foo';

        return [
            'a numeric string stays a string' => ['5'],
            'an integer' => [5],
            'a float' => [1.23456789],
            'true' => [true],
            'false' => [false],
            'null' => [null],
            'an array with mixed keys' => [['a' => 'foo', 2 => 'bar']],
            'an object' => [$object],
            'every byte' => [implode('', array_map('chr', range(0, 255)))],
            'a DateTime' => [new \DateTime('2020-02-02 12:00:00', new \DateTimeZone('UTC'))],
        ];
    }

    /** @dataProvider values */
    public function testValuesComeBackWithTheirType(mixed $value): void
    {
        $this->saved('k', $value);
        $item = $this->createPool()->getItem('k');
        self::assertTrue($item->isHit());
        self::assertTrue($this->pool->hasItem('k'));
        if (\is_object($value)) {
            self::assertEquals($value, $item->get());
            self::assertSame($value::class, $item->get()::class);
        } else {
            self::assertSame($value, $item->get());
        }
    }

    public function testAnObjectChangedAfterSaveDoesNotChangeInThePool(): void
    {
        $object = new \stdClass();
        $object->foo = 'saved';
        $this->saved('k', $object);
        $object->foo = 'changed';
        self::assertSame('saved', $this->pool->getItem('k')->get()->foo);
    }
}
