<?php

/** @generate-class-entries */

namespace OPcache {
    function cache_store(string $key, mixed $value, int $ttl = 0): bool {}

    function cache_store_array(array $values, int $ttl = 0): array {}

    function cache_fetch(string $key, mixed $default = null): mixed {}

    function cache_delete(string $key): bool {}

    function cache_delete_array(array $keys): int {}

    function cache_clear(): bool {}

    function cache_atomic_increment(string $key, int $step = 1, int $ttl = 0): int|false {}

    function cache_atomic_decrement(string $key, int $step = 1, int $ttl = 0): int|false {}

    function user_cache_info(): array {}
}

/* The classes of the ext-user_cache proposal (php-src PR 22730, stub of
 * commit 7fb5c80df7eb4fc7dc554d37925bdd11b1c79b31), declared as it declares
 * them; docs/user-cache.md maps them to Resident. */
namespace UserCache {
    enum CacheAvailability
    {
        case Available;
        case DisabledByIni;
        case DisabledBySapi;
        case UnavailableBySharedMemoryInitializationFailed;
        case UnavailableByBackendNotInitializedBeforeWorkerStartup;
        case UnavailableByBackendInitializedAfterWorkerStartup;
        case UnavailableByCgiFastCgiBoundary;
        case UnavailableByApacheBoundary;
        case UnavailableByLsapiBoundary;
        case UnavailableByUnknownReason;
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final readonly class CacheStatus
    {
        private function __construct() {}

        public function getAvailability(): CacheAvailability {}

        public function getConfiguredMemory(): int {}

        public function getSharedMemorySize(): int {}

        public function getUsedMemory(): int {}

        public function getFreeMemory(): int {}

        public function getWastedMemory(): int {}

        public function getEntryCount(): int {}

        public function getEntryCapacity(): int {}

        public function getTombstoneCount(): int {}

        public function getExpungeCount(): int {}

        public function getEvictionCount(): int {}

        public function getStoreFailureCount(): int {}

        public function getGraphPinSlotsInUse(): int {}

        public function getGraphPinnedReferences(): int {}

        public function getDeadPinOwnersReclaimed(): int {}

        public function getDeadPinsStripped(): int {}

        public function getCommittedMemory(): int {}

        public function getCommitFailureCount(): int {}
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final readonly class CachePoolStatus
    {
        private function __construct() {}

        public function getPoolName(): string {}

        public function getEntryCount(): int {}

        /** @return list<string> */
        public function getEntryKeys(): array {}

        public function getUsedMemory(): int {}
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Cache
    {
        public static function hasPool(string $pool): bool {}

        public static function getPool(string $pool): Cache {}

        public static function deletePool(string $pool): bool {}

        /** @return array<string|int,Cache> */
        public static function getPools(): array {}

        public static function getStatus(): CacheStatus {}

        private function __construct() {}

        public function store(string $key, null|bool|int|float|string|array|object $value, int $ttl = 0): bool {}

        public function add(string $key, null|bool|int|float|string|array|object $value, int $ttl = 0): bool {}

        /* $values: key => value (PHP 8.2's gen_stub.php reads no generic @param) */
        public function storeMultiple(array $values, int $ttl = 0): bool {}

        public function increment(string $key, int $step = 1, int $ttl = 0): ?int {}

        public function decrement(string $key, int $step = 1, int $ttl = 0): ?int {}

        public function fetch(string $key, mixed $default = null): mixed {}

        /* $keys: a list of keys */
        public function fetchMultiple(array $keys, mixed $default = null): array {}

        public function delete(string $key): bool {}

        /* $keys: a list of keys */
        public function deleteMultiple(array $keys): bool {}

        public function clear(): bool {}

        public function has(string $key): bool {}

        public function lock(string $key, int $lease = 0): bool {}

        public function unlock(string $key): bool {}

        public function remember(string $key, callable $callback, int $ttl = 0): mixed {}

        public function getPoolStatus(): CachePoolStatus {}
    }
}
