<?php

declare(strict_types=1);

namespace Resident;

use Psr\Log\LoggerInterface;
use Psr\SimpleCache\CacheInterface;
use Resident\Psr16\InvalidArgumentException;
use Resident\Support\KeyedResults;
use Resident\Support\PsrKey;
use Resident\Support\StorageKey;
use Resident\Support\Ttl;
use Resident\Support\Writes;

/**
 * PSR-16 over one Resident pool. The pool is the cache's namespace: clear()
 * empties the whole pool, so give each PSR-16 cache a pool of its own.
 *
 * Signatures are those of psr/simple-cache 3 with untyped (mixed)
 * parameters, which also satisfies versions 1 and 2.
 */
final class Psr16Cache implements CacheInterface
{
    private readonly Cache $pool;

    /**
     * @param Cache|string $pool       a pool, or the name of one
     * @param int          $defaultTtl seconds for set() calls without a TTL; 0 keeps them until evicted
     * @param LoggerInterface|null $logger hears why a write failed (a full pool), else PHP's warning does
     */
    public function __construct(
        Cache|string $pool = 'default',
        private readonly int $defaultTtl = 0,
        private readonly ?LoggerInterface $logger = null,
    )
    {
        if ($defaultTtl < 0) {
            throw new InvalidArgumentException('The default TTL must be 0 (none) or more seconds');
        }
        $this->pool = $pool instanceof Cache ? $pool : Cache::pool($pool);
    }

    public function pool(): Cache
    {
        return $this->pool;
    }

    public function get(mixed $key, mixed $default = null): mixed
    {
        // fetch() returns $default itself on a miss, so a stored null stays a hit.
        return $this->pool->fetch(self::id($key), $default);
    }

    public function set(mixed $key, mixed $value, mixed $ttl = null): bool
    {
        $id = self::id($key);
        $seconds = $this->seconds($ttl);
        if ($seconds === null) {
            $this->pool->delete($id);

            return true;
        }

        return Writes::store($this->pool, $id, $value, $seconds, $this->logger);
    }

    public function delete(mixed $key): bool
    {
        $this->pool->delete(self::id($key));

        return true;
    }

    public function clear(): bool
    {
        return $this->pool->clear();
    }

    public function getMultiple(mixed $keys, mixed $default = null): iterable
    {
        // Every key is checked before anything is read; a key asked twice comes once.
        $ids = [];
        foreach (self::iterable($keys) as $key) {
            $id = self::id($key);
            $ids["k$key"] ??= [$key, $id];
        }
        if ($ids === []) {
            return [];
        }
        $hits = $this->pool->fetchMultiple(array_column($ids, 1));
        $values = [];
        foreach ($ids as [$key, $id]) {
            $values[] = [$key, \array_key_exists($id, $hits) ? $hits[$id] : $default];
        }

        // Keyed by the keys as strings: a generator where one is numeric.
        return KeyedResults::of($values);
    }

    public function setMultiple(mixed $values, mixed $ttl = null): bool
    {
        $byId = [];
        foreach (self::iterable($values) as $key => $value) {
            // PHP turns the key "0" of an array into the integer 0: take it back.
            $byId[self::id(\is_int($key) ? (string) $key : $key)] = $value;
        }
        $seconds = $this->seconds($ttl);
        if ($byId === []) {
            return true;
        }
        if ($seconds === null) {
            $this->pool->deleteMultiple(array_keys($byId));

            return true;
        }

        return Writes::storeMany($this->pool, $byId, $seconds, $this->logger) === [];
    }

    public function deleteMultiple(mixed $keys): bool
    {
        $ids = [];
        foreach (self::iterable($keys) as $key) {
            $ids[] = self::id($key);
        }
        if ($ids !== []) {
            $this->pool->deleteMultiple($ids);
        }

        return true;
    }

    public function has(mixed $key): bool
    {
        return $this->pool->exists(self::id($key));
    }

    private static function id(mixed $key): string
    {
        $problem = PsrKey::problem($key);
        if ($problem !== null) {
            throw new InvalidArgumentException($problem);
        }

        return StorageKey::encode($key);
    }

    private static function iterable(mixed $keys): iterable
    {
        if (!is_iterable($keys)) {
            throw new InvalidArgumentException(sprintf('Expected an array or a Traversable, %s given', get_debug_type($keys)));
        }

        return $keys;
    }

    /** @return int|null seconds (0 = no expiry), or null when the item is already expired */
    private function seconds(mixed $ttl): ?int
    {
        if ($ttl === null) {
            return $this->defaultTtl;
        }
        if ($ttl instanceof \DateInterval) {
            $ttl = Ttl::ofInterval($ttl);
        } elseif (!\is_int($ttl)) {
            throw new InvalidArgumentException(sprintf('A TTL must be an integer, a DateInterval or null, %s given', get_debug_type($ttl)));
        }

        return $ttl <= 0 ? null : Ttl::clamp($ttl);
    }
}
