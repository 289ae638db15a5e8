<?php

declare(strict_types=1);

namespace Resident\Symfony;

use Resident\Cache;
use Resident\Support\StorageKey;
use Resident\Support\Ttl;
use Resident\Support\Writes;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\CacheItem;

/**
 * A Symfony Cache adapter over a Resident pool, built like Symfony's own
 * ApcuAdapter: AbstractAdapter does the items, namespaces, versioning, tags
 * metadata and the probabilistic early expiration of get(); this class only
 * reads and writes the pool.
 *
 * Values are stored natively (no marshaller): arrays and strings are then
 * fetched without copying under php-fpm.
 */
final class ResidentAdapter extends AbstractAdapter
{
    /** Keys deleted per deleteMultiple() call while clearing a namespace. */
    private const CLEAR_BATCH = 1000;

    private readonly Cache $pool;

    /**
     * @param string       $namespace       prefix of this adapter's keys inside the pool
     * @param int          $defaultLifetime seconds for items saved without an expiry; 0 for none
     * @param string|null  $version         when it changes, the namespace is cleared (e.g. a deploy id)
     * @param Cache|string $pool            a pool, or the name of one
     */
    public function __construct(string $namespace = '', int $defaultLifetime = 0, ?string $version = null, Cache|string $pool = 'symfony')
    {
        $this->pool = $pool instanceof Cache ? $pool : Cache::pool($pool);
        parent::__construct($namespace, $defaultLifetime);

        if ($version !== null) {
            CacheItem::validateKey($version);
            $marker = StorageKey::encode($version . '@' . $namespace);
            if (!$this->pool->exists($marker)) {
                $this->doClear($namespace);
                $this->pool->add($marker, null);
            }
        }
    }

    public static function isSupported(): bool
    {
        return class_exists(Cache::class);
    }

    protected function doFetch(array $ids): iterable
    {
        $byStorageKey = [];
        foreach ($ids as $id) {
            $byStorageKey[StorageKey::encode($id)] = $id;
        }
        try {
            $hits = $this->pool->fetchMultiple(array_keys($byStorageKey));
        } catch (\Throwable) {
            // One value failed to come back (its __wakeup() threw, say): the others still can.
            $hits = $this->fetchOneByOne(array_keys($byStorageKey));
        }
        $values = [];
        foreach ($byStorageKey as $storageKey => $id) {
            if (\array_key_exists($storageKey, $hits)) {
                $values[$id] = $hits[$storageKey];
            }
        }

        return $values;
    }

    protected function doHave(string $id): bool
    {
        return $this->pool->exists(StorageKey::encode($id));
    }

    protected function doClear(string $namespace): bool
    {
        if ($namespace === '') {
            return $this->pool->clear();
        }
        $batch = [];
        foreach ($this->pool->keys(StorageKey::encode($namespace)) as $key) {
            $batch[] = $key;
            if (\count($batch) === self::CLEAR_BATCH) {
                $this->pool->deleteMultiple($batch);
                $batch = [];
            }
        }
        if ($batch !== []) {
            $this->pool->deleteMultiple($batch);
        }

        return true;
    }

    protected function doDelete(array $ids): bool
    {
        if ($ids !== []) {
            $this->pool->deleteMultiple(array_map(StorageKey::encode(...), array_values($ids)));
        }

        return true;
    }

    protected function doSave(array $values, int $lifetime): array|bool
    {
        $byStorageKey = [];
        $ids = [];
        foreach ($values as $id => $value) {
            $storageKey = StorageKey::encode((string) $id);
            $byStorageKey[$storageKey] = $value;
            $ids[$storageKey] = $id;
        }
        $failed = [];
        // AbstractAdapter's logger (setLogger(), the framework's "logger" service) hears why a save failed.
        foreach (Writes::storeMany($this->pool, $byStorageKey, $lifetime > 0 ? Ttl::clamp($lifetime) : 0, $this->logger) as $storageKey) {
            $failed[] = $ids[$storageKey];
        }

        return $failed;
    }

    /**
     * @param list<int|string> $storageKeys
     * @return array<int|string, mixed>
     */
    private function fetchOneByOne(array $storageKeys): array
    {
        $miss = new \stdClass();
        $hits = [];
        foreach ($storageKeys as $storageKey) {
            try {
                $value = $this->pool->fetch((string) $storageKey, $miss);
            } catch (\Throwable) {
                continue; // a miss: the caller recomputes and replaces it
            }
            if ($value !== $miss) {
                $hits[$storageKey] = $value;
            }
        }

        return $hits;
    }
}
