<?php

declare(strict_types=1);

namespace Resident\Support;

/**
 * Lifetimes as the extension takes them: whole seconds, 0 for none.
 */
final class Ttl
{
    /**
     * The extension refuses a TTL whose expiry overflows its millisecond
     * clock; a hundred years is "forever" for any cache.
     */
    public const MAX_SECONDS = 100 * 366 * 86400;

    /** Seconds from now until $interval has passed; 0 or less means already expired. */
    public static function ofInterval(\DateInterval $interval): int
    {
        $now = new \DateTimeImmutable('now', new \DateTimeZone('UTC'));

        return $now->add($interval)->getTimestamp() - $now->getTimestamp();
    }

    /**
     * Seconds from now until $expiry (a Unix time with a fraction), rounded
     * up so that an item never expires before its time.
     */
    public static function until(float $expiry): int
    {
        $left = $expiry - microtime(true);

        return $left <= 0 ? 0 : (int) ceil($left);
    }

    /** A positive TTL the extension accepts. */
    public static function clamp(int $seconds): int
    {
        return min($seconds, self::MAX_SECONDS);
    }
}
