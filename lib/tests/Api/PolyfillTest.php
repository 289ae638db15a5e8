<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

use PHPUnit\Framework\TestCase;
use Resident\Cache;

/** Which Resident\Cache is loaded, and what only the polyfill has to get right. */
final class PolyfillTest extends TestCase
{
    public function testThePolyfillLoadsOnlyWithoutTheExtension(): void
    {
        $internal = (new \ReflectionClass(Cache::class))->isInternal();
        self::assertSame(\extension_loaded('resident'), $internal);
        $expected = getenv('RESIDENT_TEST_MODE');
        if ($expected !== false) {
            self::assertSame($expected === 'extension', $internal);
        }
    }

    public function testBackend(): void
    {
        $mode = $this->polyfillMode();
        self::assertSame($mode, Cache::status()['polyfill']);
    }

    public function testPoolNamesCannotCollideThroughTheirPrefix(): void
    {
        $this->polyfillMode();
        $a = Cache::pool('poly:a');
        $ab = Cache::pool('poly:a:b');
        $a->clear();
        $ab->clear();
        $a->store('b:c', 'pool a');
        $ab->store('c', 'pool a:b');
        self::assertSame('pool a', $a->fetch('b:c'));
        self::assertSame('pool a:b', $ab->fetch('c'));
        self::assertSame(['c'], iterator_to_array($ab->keys()));
        $ab->clear();
        self::assertSame('pool a', $a->fetch('b:c'));
    }

    public function testTheAttributeIsDeclared(): void
    {
        self::assertTrue(class_exists(\Resident\RequestOverStatic::class));
        $attribute = (new \ReflectionClass(\Resident\RequestOverStatic::class))->getAttributes()[0] ?? null;
        if (!\extension_loaded('resident')) {
            self::assertSame(\Attribute::class, $attribute?->getName());
        }
    }

    private function polyfillMode(): string
    {
        if (\extension_loaded('resident')) {
            self::markTestSkipped('The extension is loaded: no polyfill');
        }

        return \function_exists('apcu_enabled') && apcu_enabled() ? 'apcu' : 'array';
    }
}
