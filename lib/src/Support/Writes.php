<?php

declare(strict_types=1);

namespace Resident\Support;

use Psr\Log\LoggerInterface;
use Resident\Cache;

/**
 * Stores on behalf of the framework adapters, where a value that cannot be
 * kept is a failed write (false), not an error: the PSR and framework
 * contracts report failures by return value, and a full cache must not
 * break the request that wanted to cache something.
 *
 * What the extension says of a failed write (a full pool: "No room for
 * key ...") still reaches someone: the caller's logger, as a warning, when
 * the adapter was given one; else PHP's own warning, as from the
 * extension's API itself.
 */
final class Writes
{
    /** @return bool whether $value is now stored under $id */
    public static function store(Cache $pool, string $id, mixed $value, int $ttl, ?LoggerInterface $logger = null): bool
    {
        try {
            return self::heard(static fn (): bool => $pool->store($id, $value, $ttl), $pool, $logger);
        } catch (\TypeError|\ValueError) {
            // A closure, resource... somewhere in $value, or nesting too deep.
            return false;
        }
    }

    /**
     * @param array<string, mixed> $values id => value
     * @return list<string|int> the ids that were not stored
     */
    public static function storeMany(Cache $pool, array $values, int $ttl, ?LoggerInterface $logger = null): array
    {
        try {
            return self::heard(static fn (): array => $pool->storeMultiple($values, $ttl), $pool, $logger);
        } catch (\TypeError|\ValueError) {
            // storeMultiple() stores nothing when one value is bad: keep the good ones.
            $failed = [];
            foreach ($values as $id => $value) {
                if (!self::store($pool, (string) $id, $value, $ttl, $logger)) {
                    $failed[] = $id;
                }
            }

            return $failed;
        }
    }

    /** add() with the same failure rules as store(). */
    public static function add(Cache $pool, string $id, mixed $value, int $ttl, ?LoggerInterface $logger = null): bool
    {
        try {
            return self::heard(static fn (): bool => $pool->add($id, $value, $ttl), $pool, $logger);
        } catch (\TypeError|\ValueError) {
            return false;
        }
    }

    /**
     * Runs $write; a warning it raises goes to $logger, or is raised again
     * as the caller's own (E_USER_WARNING) without one.
     *
     * @template T
     * @param \Closure(): T $write
     * @return T
     */
    private static function heard(\Closure $write, Cache $pool, ?LoggerInterface $logger): mixed
    {
        $warnings = [];
        set_error_handler(static function (int $level, string $message) use (&$warnings): bool {
            $warnings[] = $message;

            return true;
        }, \E_WARNING | \E_USER_WARNING);
        try {
            $result = $write();
        } finally {
            restore_error_handler();
        }
        foreach ($warnings as $warning) {
            if ($logger !== null) {
                $logger->warning('Resident: {message}', ['message' => $warning, 'pool' => $pool->name()]);
            } else {
                trigger_error($warning, \E_USER_WARNING);
            }
        }

        return $result;
    }
}
