<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Psr16;

use PHPUnit\Framework\TestCase;
use Psr\SimpleCache\CacheInterface;
use Psr\SimpleCache\InvalidArgumentException;
use Resident\Tests\Contract\Expiry;

/**
 * What PSR-16 asks of a cache, as the current php-cache/integration-tests
 * (SimpleCacheTest) checks it, in this project's own tests. Each section
 * names the behaviour; a cache passes by being given to createCache().
 */
abstract class SimpleCacheContract extends TestCase
{
    use Expiry;

    protected CacheInterface $cache;

    /** A cache over storage the test may clear; every call gives a new instance over the same storage. */
    abstract protected function createCache(): CacheInterface;

    protected function setUp(): void
    {
        $this->cache = $this->createCache();
        $this->cache->clear();
    }

    protected function tearDown(): void
    {
        if (isset($this->cache)) {
            $this->cache->clear();
        }
    }

    /** @return array<string, mixed> what $results yields, keys as they come */
    private static function collect(iterable $results): array
    {
        $collected = [];
        foreach ($results as $key => $value) {
            self::assertIsString($key, 'PSR-16 keys are strings');
            self::assertArrayNotHasKey($key, $collected, "key $key came twice");
            $collected[$key] = $value;
        }

        return $collected;
    }

    // One key at a time

    public function testSetThenGet(): void
    {
        self::assertTrue($this->cache->set('key', 'value'));
        self::assertSame('value', $this->cache->get('key'));
        self::assertSame('value', $this->createCache()->get('key', 'default'));
    }

    public function testGetOfAMissingKeyGivesTheDefault(): void
    {
        self::assertNull($this->cache->get('key'));
        self::assertSame('foo', $this->cache->get('key', 'foo'));
        $object = new \stdClass();
        $object->foo = 'value';
        self::assertSame($object, $this->cache->get('key', $object));
    }

    public function testHas(): void
    {
        self::assertFalse($this->cache->has('key'));
        $this->cache->set('key', 'value');
        self::assertTrue($this->cache->has('key'));
    }

    public function testDeleteSaysTrueWhetherOrNotTheKeyWasThere(): void
    {
        self::assertTrue($this->cache->delete('key'));
        $this->cache->set('key', 'value');
        self::assertTrue($this->cache->delete('key'));
        self::assertNull($this->cache->get('key'));
        self::assertFalse($this->cache->has('key'));
    }

    public function testClearEmptiesTheCacheAndSaysTrue(): void
    {
        self::assertTrue($this->cache->clear(), 'clearing an empty cache');
        $this->cache->set('key', 'value');
        self::assertTrue($this->cache->clear());
        self::assertNull($this->cache->get('key'));
    }

    public function testStoringNullReplacesTheValue(): void
    {
        $this->cache->set('key', 5);
        $this->cache->set('key', null);
        self::assertNull($this->cache->get('key', 'default'));
    }

    // Many keys at a time

    public function testSetMultipleThenGet(): void
    {
        self::assertTrue($this->cache->setMultiple(['key0' => 'value0', 'key1' => 'value1']));
        self::assertSame('value0', $this->cache->get('key0'));
        self::assertSame('value1', $this->cache->get('key1'));
    }

    public function testSetMultipleTakesTheIntegerKeysOfAnArray(): void
    {
        self::assertTrue($this->cache->setMultiple(['0' => 'zero', '42' => 'answer']));
        self::assertSame('zero', $this->cache->get('0'));
        self::assertSame('answer', $this->cache->get('42'));
    }

    public function testSetMultipleTakesAGenerator(): void
    {
        self::assertTrue($this->cache->setMultiple((static function (): \Generator {
            yield 'key0' => 'value0';
            yield 'key1' => 'value1';
        })()));
        self::assertSame('value0', $this->cache->get('key0'));
        self::assertSame('value1', $this->cache->get('key1'));
    }

    public function testGetMultipleGivesEveryKeyWithItsValueOrTheDefault(): void
    {
        self::assertSame(['key0' => null, 'key1' => null], self::collect($this->cache->getMultiple(['key0', 'key1'])));
        $this->cache->set('key3', 'value');
        self::assertSame(['key2' => 'foo', 'key3' => 'value', 'key4' => 'foo'],
            self::collect($this->cache->getMultiple(['key2', 'key3', 'key4'], 'foo')));
    }

    public function testGetMultipleKeepsNumericKeysStrings(): void
    {
        $this->cache->set('123', 'stored');
        self::assertSame(['123' => 'stored', '7' => null, 'x' => null], self::collect($this->cache->getMultiple(['123', '7', 'x'])));
    }

    public function testGetMultipleTakesTheValuesOfAGenerator(): void
    {
        $this->cache->set('key0', 'value0');
        // The generator's own keys (both 1 here) are not cache keys: its values are.
        $keys = (static function (): \Generator {
            yield 1 => 'key0';
            yield 1 => 'key1';
        })();
        self::assertSame(['key0' => 'value0', 'key1' => null], self::collect($this->cache->getMultiple($keys)));
    }

    public function testDeleteMultiple(): void
    {
        self::assertTrue($this->cache->deleteMultiple([]));
        self::assertTrue($this->cache->deleteMultiple(['never-set']));
        $this->cache->set('key0', 'value0');
        $this->cache->set('key1', 'value1');
        $this->cache->set('kept', 'value');
        self::assertTrue($this->cache->deleteMultiple(['key0', 'key1']));
        self::assertNull($this->cache->get('key0'));
        self::assertNull($this->cache->get('key1'));
        self::assertSame('value', $this->cache->get('kept'));
    }

    public function testDeleteMultipleTakesTheValuesOfAGenerator(): void
    {
        $this->cache->set('key0', 'value0');
        self::assertTrue($this->cache->deleteMultiple((static function (): \Generator {
            yield 1 => 'key0';
            yield 1 => 'key1';
        })()));
        self::assertNull($this->cache->get('key0'));
    }

    // Lifetimes

    public function testAZeroOrNegativeTtlDeletes(): void
    {
        $this->cache->set('zero', 'value');
        $this->cache->set('zero', 'value', 0);
        self::assertFalse($this->cache->has('zero'));
        $this->cache->set('negative', 'value');
        $this->cache->set('negative', 'value', -1);
        self::assertNull($this->cache->get('negative'));
        $past = new \DateInterval('PT1S');
        $past->invert = 1;
        $this->cache->set('interval', 'value');
        $this->cache->set('interval', 'value', $past);
        self::assertFalse($this->cache->has('interval'));
        $this->cache->setMultiple(['m0' => 'v', 'm1' => 'v']);
        $this->cache->setMultiple(['m0' => 'v', 'm1' => 'v'], 0);
        self::assertNull($this->cache->get('m0'));
        self::assertNull($this->cache->get('m1'));
    }

    public function testValuesExpireAfterTheirTtl(): void
    {
        self::assertTrue($this->cache->set('seconds', 'v', self::SHORT));
        self::assertTrue($this->cache->set('interval', 'v', new \DateInterval('PT' . self::SHORT . 'S')));
        self::assertTrue($this->cache->setMultiple(['many0' => 'v', 'many1' => 'v'], self::SHORT));
        self::assertTrue($this->cache->setMultiple(['many-interval' => 'v'], new \DateInterval('PT' . self::SHORT . 'S')));
        self::assertTrue($this->cache->set('long', 'v', 3600));
        self::assertSame('v', $this->cache->get('seconds'));
        self::waitPast(self::SHORT);
        foreach (['seconds', 'interval', 'many0', 'many1', 'many-interval'] as $key) {
            self::assertNull($this->cache->get($key), "$key expired");
            self::assertFalse($this->cache->has($key), "$key expired");
        }
        self::assertSame('v', $this->cache->get('long'));
    }

    // Keys

    /** @return list<array{string}> */
    public static function validKeys(): array
    {
        return [['AbC19_.'], [str_repeat('1234567890', 6) . '1234'], [str_repeat('a', 300)], ['0']];
    }

    /** @dataProvider validKeys */
    public function testValidKeys(string $key): void
    {
        self::assertFalse($this->cache->has($key));
        self::assertTrue($this->cache->set($key, 'foobar'));
        self::assertSame('foobar', $this->cache->get($key));
        self::assertTrue($this->cache->has($key));
        self::assertTrue($this->cache->setMultiple([$key => 'other']));
        self::assertSame([$key => 'other'], self::collect($this->cache->getMultiple([$key])));
        self::assertTrue($this->cache->delete($key));
        self::assertFalse($this->cache->has($key));
    }

    /** @return list<array{string}> the empty key, and keys with a character PSR-16 reserves */
    public static function invalidKeys(): array
    {
        return array_merge([['']], array_map(static fn (string $c): array => ["key{$c}x"], str_split('{}()/\@:')));
    }

    /** @return list<array{mixed}> keys that are not strings */
    public static function nonStringKeys(): array
    {
        return [[true], [false], [null], [2], [2.5], [new \stdClass()], [['array']]];
    }

    /** @return array<string, \Closure(CacheInterface, mixed): mixed> each method that takes keys, by name */
    private static function keyMethods(): array
    {
        return [
            'get' => static fn (CacheInterface $c, mixed $k) => $c->get($k),
            'set' => static fn (CacheInterface $c, mixed $k) => $c->set($k, 'foobar'),
            'has' => static fn (CacheInterface $c, mixed $k) => $c->has($k),
            'delete' => static fn (CacheInterface $c, mixed $k) => $c->delete($k),
            'getMultiple' => static fn (CacheInterface $c, mixed $k) => $c->getMultiple(['key1', $k, 'key2']),
            'deleteMultiple' => static fn (CacheInterface $c, mixed $k) => $c->deleteMultiple(['key1', $k, 'key2']),
        ];
    }

    private function assertRefused(\Closure $call, string $what, bool $typeErrorToo): void
    {
        try {
            $call();
        } catch (InvalidArgumentException) {
            $this->addToAssertionCount(1);

            return;
        } catch (\TypeError $e) {
            if ($typeErrorToo) {
                $this->addToAssertionCount(1);

                return;
            }

            throw $e;
        }
        self::fail("$what was taken");
    }

    /** @dataProvider invalidKeys */
    public function testEveryMethodRefusesInvalidKeys(string $key): void
    {
        foreach (self::keyMethods() as $method => $call) {
            $this->assertRefused(fn () => $call($this->cache, $key), "$method() with the key \"$key\"", false);
        }
        $values = (static function () use ($key): \Generator {
            yield 'key1' => 'foo';
            yield $key => 'bar';
            yield 'key2' => 'baz';
        })();
        $this->assertRefused(fn () => $this->cache->setMultiple($values), "setMultiple() with the key \"$key\"", false);
        self::assertFalse($this->cache->has('key1'), 'setMultiple() checks every key before storing any');
    }

    /** @dataProvider nonStringKeys */
    public function testEveryMethodRefusesKeysThatAreNotStrings(mixed $key): void
    {
        foreach (self::keyMethods() as $method => $call) {
            $this->assertRefused(fn () => $call($this->cache, $key), "$method() with a key of type " . get_debug_type($key), true);
        }
        if (\is_int($key)) {
            return; // an integer is how PHP keeps the array key "2": setMultiple() takes it
        }
        $values = (static function () use ($key): \Generator {
            yield 'key1' => 'foo';
            yield $key => 'bar';
        })();
        $this->assertRefused(fn () => $this->cache->setMultiple($values), 'setMultiple() with a key of type ' . get_debug_type($key), true);
    }

    /** @return list<array{mixed}> */
    public static function notIterable(): array
    {
        return [['key'], [true], [false], [null], [2], [2.5], [new \stdClass()]];
    }

    /** @dataProvider notIterable */
    public function testTheMultipleMethodsRefuseWhatIsNotIterable(mixed $argument): void
    {
        $this->assertRefused(fn () => $this->cache->getMultiple($argument), 'getMultiple() of ' . get_debug_type($argument), true);
        $this->assertRefused(fn () => $this->cache->setMultiple($argument), 'setMultiple() of ' . get_debug_type($argument), true);
        $this->assertRefused(fn () => $this->cache->deleteMultiple($argument), 'deleteMultiple() of ' . get_debug_type($argument), true);
    }

    /** @return list<array{mixed}> TTLs that are neither null, an integer nor a DateInterval */
    public static function invalidTtls(): array
    {
        return [[''], [true], [false], ['abc'], [2.5], [' 1'], ['12foo'], ['025'], [new \stdClass()], [['array']]];
    }

    /** @dataProvider invalidTtls */
    public function testInvalidTtlsAreRefused(mixed $ttl): void
    {
        $this->assertRefused(fn () => $this->cache->set('key', 'value', $ttl), 'set() with a TTL of type ' . get_debug_type($ttl), true);
        $this->assertRefused(fn () => $this->cache->setMultiple(['key' => 'value'], $ttl), 'setMultiple() with a TTL of type ' . get_debug_type($ttl), true);
        self::assertFalse($this->cache->has('key'));
    }

    // Values

    /** @return array<string, array{mixed}> */
    public static function values(): array
    {
        $object = new \stdClass();
        $object->a = 'foo';

        return [
            'a numeric string stays a string' => ['5'],
            'a string' => ['AbC19_.'],
            'an integer' => [4711],
            'a float' => [47.11],
            'true' => [true],
            'false' => [false],
            'null' => [null],
            'an array' => [['a' => 'foo', 2 => 'bar']],
            'an object' => [$object],
            'every byte' => [implode('', array_map('chr', range(0, 255)))],
        ];
    }

    /** @dataProvider values */
    public function testValuesComeBackWithTheirType(mixed $value): void
    {
        $this->cache->set('key', $value);
        $this->cache->setMultiple(['many' => $value]);
        $fresh = $this->createCache();
        foreach ([$fresh->get('key', 'default'), self::collect($fresh->getMultiple(['many'], 'default'))['many']] as $got) {
            if (\is_object($value)) {
                self::assertEquals($value, $got);
                self::assertSame($value::class, $got::class);
            } else {
                self::assertSame($value, $got);
            }
        }
        self::assertTrue($fresh->has('key'), 'a stored ' . get_debug_type($value) . ' is there');
    }

    public function testAnObjectChangedAfterSetDoesNotChangeInTheCache(): void
    {
        $object = new \stdClass();
        $object->foo = 'value';
        $this->cache->set('key', $object);
        $object->foo = 'changed';
        $cached = $this->cache->get('key');
        self::assertInstanceOf(\stdClass::class, $cached);
        self::assertSame('value', $cached->foo);
    }
}
