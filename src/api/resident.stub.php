<?php

/** @generate-class-entries */

namespace Resident {
    /**
     * @var string
     * @cvalue PHP_RESIDENT_VERSION
     */
    const VERSION = UNKNOWN;

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Cache
    {
        private function __construct() {}

        public static function pool(string $name = "default", bool $pinned = false): Cache {}

        public function name(): string {}

        public function store(string $key, mixed $value, int $ttl = 0): bool {}

        public function add(string $key, mixed $value, int $ttl = 0): bool {}

        public function fetch(string $key, mixed $default = null): mixed {}

        public function storeMultiple(array $values, int $ttl = 0): array {}

        public function fetchMultiple(array $keys): array {}

        public function exists(string $key): bool {}

        public function delete(string $key): bool {}

        public function deleteMultiple(array $keys): int {}

        public function clear(): bool {}

        public function increment(string $key, int $step = 1, int $ttl = 0): int|false {}

        public function decrement(string $key, int $step = 1, int $ttl = 0): int|false {}

        public function cas(string $key, int $old, int $new): bool {}

        public function remember(string $key, callable $compute, int $ttl = 0, int $staleTtl = 0): mixed {}

        /**
         * What $build returns, built once per deploy and kept: every later
         * call, in any worker, gets a fresh copy of it, on which $reset runs
         * first (docs/kept-apps.md).
         */
        public function keep(string $key, callable $build, ?callable $reset = null): mixed {}

        public function keys(string $prefix = ""): KeyIterator {}

        public function info(): array {}

        public static function status(): array {}

        /**
         * For dashboards: the heap by address in $cells slices (bytes live,
         * free, in limbo, reserved), the $top largest entries and the $top
         * most read ones (estimated from sampled hits).
         */
        public static function inspect(int $top = 20, int $cells = 256): array {}

        /**
         * Writes the live entries (RequestOverStatic snapshots included) to
         * $file, for resident.restore_on_start or restore(). Returns how
         * many, or false with a warning.
         */
        public static function dump(string $file): int|false {}

        /**
         * Loads a dump into this segment, which must be empty and of the
         * same build, size and address as the one dumped. A truncated,
         * damaged or foreign file is refused whole. Returns how many entries
         * were loaded, or false with a warning.
         */
        public static function restore(string $file): int|false {}

        /** The segment's and pools' statistics in Prometheus text format. */
        public static function metrics(): string {}

        /**
         * A long-running worker's request boundary: what this process
         * borrowed before is released (limbo can be reclaimed), and from
         * the first call on resident.zero_copy=auto borrows here too.
         * Values fetched before the call must not be used after it
         * (resident.check_borrowed copies those still referenced, with a
         * warning). False, with a warning, when nothing could be released.
         */
        public static function endOfRequest(): bool {}

        /** Drops RequestOverStatic snapshots: of one class, or all. Returns how many. */
        public static function forgetStatics(?string $class = null): int {}
    }

    /**
     * Keeps static state across requests: on a class (all its static
     * properties and the static variables of its methods), on a static
     * property, or on a method (its static variables).
     * @strict-properties
     */
    final class RequestOverStatic
    {
        /** "request-end" (the default) or "immediate" (a static property only). */
        public readonly string $publish;

        /**
         * $publish: when what a request wrote reaches other workers: at the
         * end of the request ("request-end"), or, for a static property,
         * before each built-in function the request calls ("immediate",
         * with resident.request_over_static_immediate=1).
         */
        public function __construct(string $publish = "request-end") {}
    }

    /**
     * Live keys of a pool, read bucket by bucket while others write: a key
     * present throughout the iteration is returned exactly once.
     * @strict-properties
     * @not-serializable
     */
    final class KeyIterator implements \Iterator
    {
        private function __construct() {}

        public function current(): string {}

        public function key(): int {}

        public function next(): void {}

        public function rewind(): void {}

        public function valid(): bool {}
    }

    /**
     * Test hooks, registered only with resident.testing=1.
     * @strict-properties
     * @not-serializable
     */
    final class Testing
    {
        /** Makes this process die (SIGKILL) at a named point of its next write. */
        public static function crashAt(string $point): void {}

        /** Full consistency check of the segment: null, or what is wrong. */
        public static function check(): ?string {}

        /**
         * Fetches the key as a RequestOverStatic restore does: in a request
         * that borrows (resident.zero_copy=on in the CLI), objects of unchanged
         * classes come back as shells, filled in when first used.
         */
        public static function fetchLazily(Cache $cache, string $key): mixed {}

        /** Whether the object is a shell not filled in yet, or filled with properties still pending (the objects it holds are made when first read). */
        public static function isShell(object $object): bool {}

        /**
         * Whether the objects of the last fetchLazily() that were filled in
         * still hold what was stored (the test that spares a read-only request
         * a digest); null if nothing was fetched lazily.
         */
        public static function lazyUnchanged(): ?bool {}
    }
}
