<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * Where one pool's entries live. Values reach it already encoded
 * (Encoding::encode): integers and other scalars as they are, so that
 * counters can be updated in place.
 *
 * @internal
 */
interface Storage
{
    /** The stored (encoded) value; $found tells a miss from a stored null. */
    public function fetch(string $key, ?bool &$found): mixed;

    public function exists(string $key): bool;

    /** @param int $ttl seconds, 0 for no expiry */
    public function store(string $key, mixed $encoded, int $ttl): bool;

    /** Stores only if the key is absent or expired. */
    public function add(string $key, mixed $encoded, int $ttl): bool;

    /** Replaces the integer $old with $new, keeping the expiry; false when the value is not $old. */
    public function compareAndSwap(string $key, int $old, int $new): bool;

    public function delete(string $key): bool;

    public function clear(): void;

    /** @return list<string> the live keys that start with $prefix */
    public function keys(string $prefix): array;

    /** Approximate bytes held by the live entries. */
    public function memory(): int;

    /** 'apcu' or 'array'. */
    public function kind(): string;
}
