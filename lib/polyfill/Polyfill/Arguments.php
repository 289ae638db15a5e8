<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * The extension's argument checks, with its messages, so that code written
 * against the polyfill fails the same way on the extension.
 *
 * @internal
 */
final class Arguments
{
    public const KEY_MAX_BYTES = 4096;
    public const POOL_NAME_MAX_BYTES = 63;

    public static function key(string $key, string $method, int $arg = 1, string $name = 'key'): void
    {
        if ($key === '') {
            throw self::valueError($method, $arg, $name, 'must not be empty');
        }
        if (\strlen($key) > self::KEY_MAX_BYTES) {
            throw self::valueError($method, $arg, $name, 'must not be longer than ' . self::KEY_MAX_BYTES . ' bytes');
        }
        if (str_contains($key, "\0")) {
            throw self::valueError($method, $arg, $name, 'must not contain NUL bytes');
        }
    }

    /** A key given as an array element: a string, or an integer as PHP's own array keys. */
    public static function listedKey(mixed $key, string $method, int $arg, string $name): string
    {
        if (\is_int($key)) {
            return (string) $key;
        }
        if (!\is_string($key)) {
            throw new \TypeError(self::prefix($method, $arg, $name) . 'must contain only string keys, ' . get_debug_type($key) . ' given');
        }
        self::key($key, $method, $arg, $name);

        return $key;
    }

    public static function ttl(int $ttl, string $method, int $arg, string $name = 'ttl'): void
    {
        if ($ttl < 0) {
            throw self::valueError($method, $arg, $name, 'must be greater than or equal to 0');
        }
        // The extension keeps expiry times in milliseconds in a signed 64-bit integer.
        if ($ttl > intdiv(\PHP_INT_MAX - (int) (microtime(true) * 1000), 1000)) {
            throw self::valueError($method, $arg, $name, 'is too large');
        }
    }

    public static function staleTtl(int $staleTtl, int $ttl): void
    {
        if ($staleTtl < 0) {
            throw self::valueError('remember', 4, 'staleTtl', 'must be greater than or equal to 0');
        }
        if ($staleTtl > 0 && $ttl === 0) {
            throw self::valueError('remember', 4, 'staleTtl', 'needs a TTL: a value that never expires is never stale');
        }
        self::ttl($ttl + min($staleTtl, \PHP_INT_MAX - $ttl), 'remember', 4, 'staleTtl');
    }

    public static function poolName(string $name): void
    {
        if ($name === '' || \strlen($name) > self::POOL_NAME_MAX_BYTES || preg_match('/[\x00-\x1f\x7f]/', $name)) {
            throw self::valueError('pool', 1, 'name', 'must be between 1 and ' . self::POOL_NAME_MAX_BYTES . ' bytes without control characters');
        }
        if (\strlen($name) >= 2 && $name[0] === '(' && $name[-1] === ')') {
            throw self::valueError('pool', 1, 'name', "must not be enclosed in parentheses, which name Resident's own pools");
        }
    }

    public static function valueError(string $method, int $arg, string $name, string $problem): \ValueError
    {
        return new \ValueError(self::prefix($method, $arg, $name) . $problem);
    }

    public static function prefix(string $method, int $arg, string $name): string
    {
        return sprintf('Resident\Cache::%s(): Argument #%d ($%s) ', $method, $arg, $name);
    }
}
