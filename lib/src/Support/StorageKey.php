<?php

declare(strict_types=1);

namespace Resident\Support;

/**
 * Maps any string key to one the extension accepts (no NUL byte, at most
 * 4096 bytes, not empty), the same way every time.
 *
 * Frameworks allow keys the extension refuses (Symfony tests "a\0b"), so the
 * adapters store under this form. The escaping works byte by byte, so the
 * encoded form of a prefix is a prefix of the encoded key: clearing a
 * namespace with keys($prefix) still finds its keys. Keys that need no
 * escaping (nearly all) come back unchanged.
 */
final class StorageKey
{
    public const MAX_BYTES = 4096;

    /** Room kept for the digest that replaces the tail of an over-long key. */
    private const KEPT_BYTES = 4000;

    public static function encode(string $key): string
    {
        if ($key === '') {
            return "\x01E";
        }
        if (strpbrk($key, "\x00\x01") !== false) {
            // \x01 is the escape byte; after it comes \x01 (itself) or \x02 (NUL),
            // so "\x01E" and "\x01H" below never come from escaping.
            $key = strtr($key, ["\x01" => "\x01\x01", "\x00" => "\x01\x02"]);
        }
        if (\strlen($key) <= self::MAX_BYTES) {
            return $key;
        }

        return self::shorten($key);
    }

    private static function shorten(string $escaped): string
    {
        $kept = substr($escaped, 0, self::KEPT_BYTES);
        // Do not cut an escape pair in two: an odd run of \x01 at the end is one.
        $run = \strlen($kept) - \strlen(rtrim($kept, "\x01"));
        if ($run % 2 === 1) {
            $kept = substr($kept, 0, -1);
        }

        return $kept . "\x01H" . hash('xxh128', $escaped);
    }
}
