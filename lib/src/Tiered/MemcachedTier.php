<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * The shared tier on Memcached (php-memcached). Memcached has no pub/sub:
 * nothing is pushed to listeners, and hosts poll namespace generations
 * instead (Tiered's $pollMs); a write reaches another host's local tier
 * only when its local copy expires.
 *
 * Layout, under a prefix (default "resident:"):
 *   {prefix}{namespace}:{generation}:{key}   a value (Payload); keys Memcached
 *                                            cannot take are hashed
 *   {prefix}gen:{namespace}                  the namespace's generation
 */
final class MemcachedTier implements SharedTier
{
    /** Memcached's limit is 250 bytes; room for the prefix, namespace and generation. */
    private const MAX_KEY_BYTES = 120;

    /** Memcached reads an expiration above 30 days as a Unix time. */
    private const RELATIVE_TTL_LIMIT = 30 * 86400;

    public function __construct(
        private readonly \Memcached $memcached,
        public readonly string $prefix = 'resident:',
    ) {
    }

    public function key(string $namespace, int $generation, string $key): string
    {
        // The text protocol splits on spaces and control characters; '#'
        // marks a digest so that it cannot collide with a key kept as is.
        $safe = $key !== '' && \strlen($key) <= self::MAX_KEY_BYTES && !str_starts_with($key, '#')
            && preg_match('/^[\x21-\x7e]+$/', $key) === 1;

        return $this->prefix . $namespace . ':' . $generation . ':' . ($safe ? $key : '#' . hash('xxh128', $key));
    }

    public function get(string $key): ?string
    {
        $value = $this->memcached->get($key);
        if ($value === false) {
            $code = $this->memcached->getResultCode();
            if ($code !== \Memcached::RES_NOTFOUND && $code !== \Memcached::RES_SUCCESS) {
                throw $this->failure("get $key");
            }

            return null;
        }

        return \is_string($value) ? $value : null;
    }

    public function set(string $key, string $payload, int $ttl): void
    {
        if (!$this->memcached->set($key, $payload, $this->expiration($ttl))) {
            throw $this->failure("set $key");
        }
    }

    public function delete(string $key): void
    {
        if (!$this->memcached->delete($key) && $this->memcached->getResultCode() !== \Memcached::RES_NOTFOUND) {
            throw $this->failure("delete $key");
        }
    }

    public function generation(string $namespace): int
    {
        $key = $this->generationKey($namespace);
        for ($attempt = 0; $attempt < 3; $attempt++) {
            $generation = $this->memcached->get($key);
            if ($generation !== false) {
                return (int) $generation;
            }
            if ($this->memcached->getResultCode() !== \Memcached::RES_NOTFOUND) {
                throw $this->failure("get $key");
            }
            // First use (or evicted): start it, unless another host just did.
            if ($this->memcached->add($key, (string) Generation::initial())) {
                continue;
            }
            if ($this->memcached->getResultCode() !== \Memcached::RES_NOTSTORED) {
                throw $this->failure("add $key");
            }
        }

        throw $this->failure("no generation for namespace $namespace");
    }

    public function bump(string $namespace): int
    {
        // increment() of a missing key fails: make sure it exists first.
        $this->generation($namespace);
        $generation = $this->memcached->increment($this->generationKey($namespace));
        if ($generation === false) {
            throw $this->failure("increment of the generation of $namespace");
        }

        return (int) $generation;
    }

    public function generations(): array
    {
        return [];
    }

    public function pushesInvalidations(): bool
    {
        return false;
    }

    public function publish(string $message): void
    {
    }

    private function generationKey(string $namespace): string
    {
        return $this->prefix . 'gen:' . $namespace;
    }

    private function expiration(int $ttl): int
    {
        return $ttl > self::RELATIVE_TTL_LIMIT ? time() + $ttl : $ttl;
    }

    private function failure(string $what): SharedTierException
    {
        return new SharedTierException("Memcached: $what: " . $this->memcached->getResultMessage());
    }
}
