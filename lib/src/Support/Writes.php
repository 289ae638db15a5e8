<?php

declare(strict_types=1);

namespace Resident\Support;

use Resident\Cache;

/**
 * Stores on behalf of the framework adapters, where a value that cannot be
 * kept is a failed write (false), not an error: the PSR and framework
 * contracts report failures by return value, and a full cache must not
 * break the request that wanted to cache something.
 */
final class Writes
{
    /** @return bool whether $value is now stored under $id */
    public static function store(Cache $pool, string $id, mixed $value, int $ttl): bool
    {
        try {
            // The extension warns when the segment is full; the caller hears it as false.
            return @$pool->store($id, $value, $ttl);
        } catch (\TypeError|\ValueError) {
            // A closure, resource... somewhere in $value, or nesting too deep.
            return false;
        }
    }

    /**
     * @param array<string, mixed> $values id => value
     * @return list<string|int> the ids that were not stored
     */
    public static function storeMany(Cache $pool, array $values, int $ttl): array
    {
        try {
            return @$pool->storeMultiple($values, $ttl);
        } catch (\TypeError|\ValueError) {
            // storeMultiple() stores nothing when one value is bad: keep the good ones.
            $failed = [];
            foreach ($values as $id => $value) {
                if (!self::store($pool, (string) $id, $value, $ttl)) {
                    $failed[] = $id;
                }
            }

            return $failed;
        }
    }

    /** add() with the same failure rules as store(). */
    public static function add(Cache $pool, string $id, mixed $value, int $ttl): bool
    {
        try {
            return @$pool->add($id, $value, $ttl);
        } catch (\TypeError|\ValueError) {
            return false;
        }
    }
}
