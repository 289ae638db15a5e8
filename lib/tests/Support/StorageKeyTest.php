<?php

declare(strict_types=1);

namespace Resident\Tests\Support;

use PHPUnit\Framework\TestCase;
use Resident\Support\StorageKey;

final class StorageKeyTest extends TestCase
{
    public function testOrdinaryKeysAreUnchanged(): void
    {
        foreach (['a', 'user:42', str_repeat('k', StorageKey::MAX_BYTES), "tab\there", 'ünï'] as $key) {
            self::assertSame($key, StorageKey::encode($key));
        }
    }

    public function testEveryKeyBecomesOneTheExtensionAccepts(): void
    {
        foreach (['', "\0", "a\0b", "\x01", str_repeat("\0", 3000), str_repeat('x', 5000), str_repeat("\x01", 4999)] as $key) {
            $encoded = StorageKey::encode($key);
            self::assertNotSame('', $encoded);
            self::assertStringNotContainsString("\0", $encoded);
            self::assertLessThanOrEqual(StorageKey::MAX_BYTES, \strlen($encoded));
        }
    }

    public function testDistinctKeysStayDistinct(): void
    {
        $keys = ['', "\0", "\x01", "\x01\x02", "\x02", "\x01E", "\x01H", "a\0", "a\x01\x02", str_repeat('x', 5000), str_repeat('x', 5001), str_repeat('x', 4999) . "\x01"];
        $encoded = array_map(StorageKey::encode(...), $keys);
        self::assertCount(\count($keys), array_unique($encoded));
    }

    public function testAPrefixEncodesToAPrefix(): void
    {
        // Clearing a namespace looks keys up by the encoded prefix.
        foreach ([['ns:', "a\0b"], ["n\0s:", 'key'], ["\x01", "\x01"], ['ns:', str_repeat('y', 6000)]] as [$prefix, $rest]) {
            self::assertStringStartsWith(StorageKey::encode($prefix), StorageKey::encode($prefix . $rest));
        }
    }
}
