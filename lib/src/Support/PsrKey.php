<?php

declare(strict_types=1);

namespace Resident\Support;

/**
 * The key rules PSR-6 and PSR-16 share. Returns what is wrong, so that each
 * standard throws its own exception class.
 */
final class PsrKey
{
    public const RESERVED = '{}()/\@:';

    public static function problem(mixed $key): ?string
    {
        if (!\is_string($key)) {
            return sprintf('A cache key must be a string, %s given', get_debug_type($key));
        }
        if ($key === '') {
            return 'A cache key must not be empty';
        }
        if (strpbrk($key, self::RESERVED) !== false) {
            return sprintf('Cache key "%s" contains a reserved character (one of %s)', $key, self::RESERVED);
        }

        return null;
    }
}
