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

namespace UserCache {
    enum Availability
    {
        case Available;
        case Disabled;
        case Unavailable;
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Status
    {
        private function __construct() {}

        public function getAvailability(): Availability {}

        public function getInfo(): array {}
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Cache
    {
        public function __construct(string $scope = "default") {}

        public static function getPool(string $scope): Cache {}

        public function store(string $key, mixed $value, int $ttl = 0): bool {}

        public function storeMultiple(array $values, int $ttl = 0): array {}

        public function fetch(string $key, mixed $default = null): mixed {}

        public function fetchMultiple(array $keys): array {}

        public function delete(string $key): bool {}

        public function clear(): bool {}

        public static function getStatus(): Status {}
    }
}
