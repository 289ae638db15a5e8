<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * A value as the shared tier keeps it: serialized with its expiry, so that
 * a host filling its local tier knows how long the value may live there
 * (never past its expiry in the shared tier).
 */
final class Payload
{
    /**
     * @param int $expiresAt Unix time in milliseconds, 0 for never
     * @throws \Exception when $value cannot be serialized (a closure...)
     */
    public static function encode(mixed $value, int $expiresAt): string
    {
        return serialize([$value, $expiresAt]);
    }

    /**
     * @return array{0: mixed, 1: int}|null [value, expiresAt], or null for something that is not a payload
     */
    public static function decode(string $payload): ?array
    {
        // A payload that is not ours (another writer under the prefix) is a miss, not a warning.
        $decoded = @unserialize($payload);
        if (!\is_array($decoded) || \count($decoded) !== 2 || !\is_int($decoded[1] ?? null)) {
            return null;
        }

        return $decoded;
    }

    /** Unix time in milliseconds when a value stored now with $ttl seconds expires; 0 for none. */
    public static function expiry(int $ttl): int
    {
        return $ttl > 0 ? self::now() + $ttl * 1000 : 0;
    }

    public static function expired(int $expiresAt): bool
    {
        return $expiresAt !== 0 && $expiresAt <= self::now();
    }

    public static function now(): int
    {
        return (int) (microtime(true) * 1000);
    }
}
