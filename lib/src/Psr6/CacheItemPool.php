<?php

declare(strict_types=1);

namespace Resident\Psr6;

use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use Psr\Log\LoggerInterface;
use Resident\Cache;
use Resident\Support\KeyedResults;
use Resident\Support\PsrKey;
use Resident\Support\StorageKey;
use Resident\Support\Ttl;
use Resident\Support\Writes;

/**
 * PSR-6 over one Resident pool. Values are stored as they are (no wrapper),
 * so a PSR-16 cache and this pool over the same Resident pool see the same
 * items. clear() empties the whole Resident pool.
 *
 * Deferred items live in this object until commit(), which the destructor
 * also runs.
 */
final class CacheItemPool implements CacheItemPoolInterface
{
    private readonly Cache $pool;

    /** @var array<string, CacheItem> key => item saved with saveDeferred() */
    private array $deferred = [];

    /** Told apart from any stored value by identity: fetch() returns it only on a miss. */
    private static ?\stdClass $miss = null;

    /**
     * @param Cache|string $pool       a pool, or the name of one
     * @param int          $defaultTtl seconds for items saved without an expiry; 0 keeps them until evicted
     * @param LoggerInterface|null $logger hears why a save failed (a full pool), else PHP's warning does
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
        self::$miss ??= new \stdClass();
    }

    public function __destruct()
    {
        if ($this->deferred !== []) {
            $this->commit();
        }
    }

    public function pool(): Cache
    {
        return $this->pool;
    }

    public function getItem(mixed $key): CacheItemInterface
    {
        $id = self::id($key);
        if ($this->deferredHit($key)) {
            return $this->deferred[$key]->asHit();
        }
        $value = $this->pool->fetch($id, self::$miss);

        return $value === self::$miss ? new CacheItem($key, null, false) : new CacheItem($key, $value, true);
    }

    public function getItems(array $keys = []): iterable
    {
        // Every key is checked before anything is read; a key asked twice comes once.
        $ids = [];
        foreach ($keys as $key) {
            $id = self::id($key);
            $ids["k$key"] ??= [$key, $id];
        }
        $stored = [];
        foreach ($ids as [$key, $id]) {
            if (!$this->deferredHit($key)) {
                $stored[] = $id;
            }
        }
        $hits = $stored === [] ? [] : $this->pool->fetchMultiple($stored);
        $items = [];
        foreach ($ids as [$key, $id]) {
            $items[] = [$key, $this->deferredHit($key) ? $this->deferred[$key]->asHit()
                : (\array_key_exists($id, $hits) ? new CacheItem($key, $hits[$id], true) : new CacheItem($key, null, false))];
        }

        // In the order asked for, keyed by the keys as strings.
        return KeyedResults::of($items);
    }

    public function hasItem(mixed $key): bool
    {
        $id = self::id($key);
        if ($this->deferredHit($key)) {
            return true;
        }

        return $this->pool->exists($id);
    }

    public function clear(): bool
    {
        $this->deferred = [];

        return $this->pool->clear();
    }

    public function deleteItem(mixed $key): bool
    {
        $id = self::id($key);
        unset($this->deferred[$key]);
        $this->pool->delete($id);

        return true;
    }

    public function deleteItems(array $keys): bool
    {
        $ids = [];
        foreach ($keys as $key) {
            $ids[] = self::id($key);
        }
        foreach ($keys as $key) {
            unset($this->deferred[$key]);
        }
        if ($ids !== []) {
            $this->pool->deleteMultiple($ids);
        }

        return true;
    }

    public function save(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        $id = StorageKey::encode($item->getKey());
        // This save is newer than a deferred one of the same key, which commit() must not write over it.
        unset($this->deferred[$item->getKey()]);
        $ttl = $this->ttl($item);
        if ($ttl === null) {
            $this->pool->delete($id);

            return true;
        }

        return Writes::store($this->pool, $id, $item->get(), $ttl, $this->logger);
    }

    public function saveDeferred(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        // A copy: changes to $item after this call must not reach the cache.
        $this->deferred[$item->getKey()] = $item->asHit();

        return true;
    }

    public function commit(): bool
    {
        $byTtl = [];
        $expired = [];
        foreach ($this->deferred as $key => $item) {
            $id = StorageKey::encode((string) $key);
            $ttl = $this->ttl($item);
            if ($ttl === null) {
                $expired[] = $id;
            } else {
                $byTtl[$ttl][$id] = $item->get();
            }
        }
        $this->deferred = [];
        if ($expired !== []) {
            $this->pool->deleteMultiple($expired);
        }
        $ok = true;
        foreach ($byTtl as $ttl => $values) {
            $ok = Writes::storeMany($this->pool, $values, $ttl, $this->logger) === [] && $ok;
        }

        return $ok;
    }

    private function deferredHit(string $key): bool
    {
        return isset($this->deferred[$key]) && !$this->deferred[$key]->isExpired();
    }

    /** @return int|null seconds (0 = no expiry), or null when the item has already expired */
    private function ttl(CacheItem $item): ?int
    {
        $expiry = $item->expiry();
        if ($expiry === null) {
            return $this->defaultTtl;
        }
        $ttl = Ttl::until($expiry);

        return $ttl <= 0 ? null : Ttl::clamp($ttl);
    }

    private static function id(mixed $key): string
    {
        $problem = PsrKey::problem($key);
        if ($problem !== null) {
            throw new InvalidArgumentException($problem);
        }

        return StorageKey::encode($key);
    }
}
