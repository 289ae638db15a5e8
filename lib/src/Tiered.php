<?php

declare(strict_types=1);

namespace Resident;

use Resident\Tiered\LocalTier;
use Resident\Tiered\MemcachedTier;
use Resident\Tiered\Message;
use Resident\Tiered\Payload;
use Resident\Tiered\RedisTier;
use Resident\Tiered\SharedTier;
use Resident\Tiered\SharedTierException;

/**
 * A two-tier cache for a fleet: this host's Resident pool in front of a
 * shared tier (Redis, or Memcached).
 *
 * Reads try the local tier, then the shared tier (keeping a copy locally
 * for at most $localTtl seconds), then the caller's compute (remember()).
 * Writes and deletes go to the shared tier, then to the local tier, then
 * are published to every host's listener (bin/resident-invalidator), which
 * drops its host's copy. A namespace is dropped everywhere at once by
 * moving it to a new generation: keys are stored per generation, and a
 * local copy filled at an older generation is not served.
 *
 * With Memcached nothing is published: hosts poll the namespace generation
 * every $pollMs, and another host's write is seen when the local copy
 * expires ($localTtl).
 */
final class Tiered
{
    private readonly LocalTier $local;
    private readonly SharedTier $shared;

    /** @var array{local_hits: int, shared_hits: int, misses: int, writes: int, errors: int} */
    private array $stats = ['local_hits' => 0, 'shared_hits' => 0, 'misses' => 0, 'writes' => 0, 'errors' => 0];

    /**
     * @param Cache|string $local     the local pool, or its name: give Tiered a pool of its own (the listener clears it)
     * @param int          $localTtl  seconds a copy lives in the local tier: the staleness bound when the listener is down
     * @param int          $pollMs    Memcached only: how often this host re-reads a namespace's generation
     * @param string       $prefix    of the shared tier's keys and channel, when $shared is a client (the listener needs the same)
     * @param \Closure(SharedTierException): void|null $onError told about each failure of the shared tier, which Tiered otherwise absorbs
     */
    public function __construct(
        Cache|string $local,
        SharedTier|\Redis|\RedisArray|\RedisCluster|\Memcached $shared,
        private readonly string $namespace = 'default',
        int $localTtl = 10,
        private readonly int $pollMs = 1000,
        string $prefix = 'resident:',
        private readonly ?\Closure $onError = null,
    ) {
        self::checkNamespace($namespace);
        if ($pollMs < 1) {
            throw new \InvalidArgumentException('The generation poll interval must be at least 1 ms');
        }
        $this->local = new LocalTier($local instanceof Cache ? $local : Cache::pool($local), $localTtl);
        $this->shared = match (true) {
            $shared instanceof SharedTier => $shared,
            $shared instanceof \Memcached => new MemcachedTier($shared, $prefix),
            default => new RedisTier($shared, $prefix),
        };
    }

    /** The same tiers under another namespace. */
    public function withNamespace(string $namespace): self
    {
        return new self($this->local->pool, $this->shared, $namespace, $this->local->ttl, $this->pollMs, onError: $this->onError);
    }

    public function namespace(): string
    {
        return $this->namespace;
    }

    public function get(string $key, mixed $default = null): mixed
    {
        $found = $this->lookup($key);

        return $found === null ? $default : $found[0];
    }

    public function has(string $key): bool
    {
        return $this->lookup($key) !== null;
    }

    /**
     * The value of $key, or $compute()'s, which is then stored as set() does.
     * Every host (and every worker) that misses computes: there is no
     * single flight across the fleet.
     */
    public function remember(string $key, callable $compute, int $ttl = 0): mixed
    {
        $found = $this->lookup($key);
        if ($found !== null) {
            return $found[0];
        }
        $value = $compute();
        $this->set($key, $value, $ttl);

        return $value;
    }

    /**
     * Stores in the shared tier, then here, then tells the other hosts.
     * False if the shared tier failed (this host's copy is dropped then) or
     * the value cannot be serialized.
     *
     * @param int $ttl seconds in the shared tier, 0 for none; local copies live at most $localTtl
     */
    public function set(string $key, mixed $value, int $ttl = 0): bool
    {
        if ($ttl < 0) {
            throw new \InvalidArgumentException('The TTL must be 0 (none) or more seconds');
        }
        $expiresAt = Payload::expiry($ttl);
        try {
            $payload = Payload::encode($value, $expiresAt);
        } catch (\Exception) {
            return false;       // a closure or another value serialize() refuses
        }
        try {
            $generation = $this->generation();
            $this->shared->set($this->shared->key($this->namespace, $generation, $key), $payload, $ttl);
        } catch (SharedTierException $e) {
            // The shared value is unknown now: this host must not keep serving its copy.
            $this->local->forget($this->namespace, $key);
            $this->failed($e);

            return false;
        }
        $this->stats['writes']++;
        $this->local->put($this->namespace, $key, $generation, $value, $expiresAt);
        $this->publish(Message::key($this->namespace, $key));

        return true;
    }

    /** Deletes from the shared tier, then here, then tells the other hosts. False if the shared tier failed. */
    public function delete(string $key): bool
    {
        try {
            $this->shared->delete($this->shared->key($this->namespace, $this->generation(), $key));
        } catch (SharedTierException $e) {
            $this->failed($e);

            return false;
        } finally {
            // After the shared delete, so that no fill in between brings the old value back here.
            $this->local->forget($this->namespace, $key);
        }
        $this->stats['writes']++;
        $this->publish(Message::key($this->namespace, $key));

        return true;
    }

    /**
     * Drops every key of the namespace, on every host, with one message: the
     * namespace moves to a new generation. The old keys stay in the shared
     * tier, unreachable, until their TTL or the shared tier's eviction.
     * Returns the new generation, or false if the shared tier failed.
     */
    public function clear(): int|false
    {
        try {
            $generation = $this->shared->bump($this->namespace);
        } catch (SharedTierException $e) {
            $this->failed($e);

            return false;
        }
        $this->local->raiseGeneration($this->namespace, $generation, $this->generationTtl());
        $this->publish(Message::generation($this->namespace, $generation));

        return $generation;
    }

    /**
     * Where this object's reads were served from, and its failures.
     *
     * @return array{local_hits: int, shared_hits: int, misses: int, writes: int, errors: int}
     */
    public function stats(): array
    {
        return $this->stats;
    }

    public function sharedTier(): SharedTier
    {
        return $this->shared;
    }

    public function localTier(): LocalTier
    {
        return $this->local;
    }

    /**
     * Namespaces are part of keys and messages, split on ':' and ' ': a
     * short name without either.
     */
    public static function checkNamespace(string $namespace): void
    {
        if (preg_match('/^[A-Za-z0-9_.\-]{1,64}$/', $namespace) !== 1) {
            throw new \InvalidArgumentException("Invalid namespace \"$namespace\": use 1 to 64 letters, digits, '_', '.' or '-'");
        }
    }

    /** @return array{0: mixed}|null the value (wrapped, so that a cached null is a hit), or null on a miss */
    private function lookup(string $key): ?array
    {
        $polled = !$this->shared->pushesInvalidations();
        [$entry, $generation, $polledAt] = $this->local->read($this->namespace, $key, $polled);
        try {
            $generation = $polled ? $this->polledGeneration($generation, $polledAt) : ($generation ?? $this->fetchGeneration());
            // A copy filled at an older generation belongs to a dropped namespace.
            if ($entry !== null && $entry[0] >= $generation && !Payload::expired($entry[2])) {
                $this->stats['local_hits']++;

                return [$entry[1]];
            }
            $sequence = $this->local->sequence($this->namespace, $key);
            $payload = $this->shared->get($this->shared->key($this->namespace, $generation, $key));
        } catch (SharedTierException $e) {
            // The shared tier is the truth: without it, a local copy of unknown age is not served.
            $this->failed($e);
            $this->stats['misses']++;

            return null;
        }
        $decoded = $payload === null ? null : Payload::decode($payload);
        if ($decoded === null || Payload::expired($decoded[1])) {
            $this->stats['misses']++;

            return null;
        }
        $this->stats['shared_hits']++;
        $this->local->fill($this->namespace, $key, $generation, $decoded[0], $decoded[1], $sequence);

        return [$decoded[0]];
    }

    /** The namespace's generation for a write: as this host knows it, else from the shared tier. */
    private function generation(): int
    {
        [$generation, $polledAt] = $this->local->generation($this->namespace, !$this->shared->pushesInvalidations());
        if ($this->shared->pushesInvalidations()) {
            return $generation ?? $this->fetchGeneration();
        }

        return $this->polledGeneration($generation, $polledAt);
    }

    /**
     * This host has no generation for the namespace (first use, or the
     * listener has not renewed it: its entry lives $localTtl): ask the
     * shared tier, and keep it for the other workers.
     */
    private function fetchGeneration(): int
    {
        $generation = $this->shared->generation($this->namespace);
        $this->local->offerGeneration($this->namespace, $generation, $this->generationTtl());

        return $generation;
    }

    /** Polled mode: the local generation, re-read from the shared tier by one worker every $pollMs. */
    private function polledGeneration(?int $generation, ?int $polledAt): int
    {
        $now = Payload::now();
        if ($generation !== null && $polledAt !== null && $now - $polledAt < $this->pollMs) {
            return $generation;
        }
        if ($this->local->claimPoll($this->namespace, $polledAt, $now)) {
            $fresh = $this->shared->generation($this->namespace);
            $this->local->raiseGeneration($this->namespace, $fresh, 0);

            return max($fresh, $generation ?? $fresh);
        }

        // Another worker is polling: use what the host has, if anything.
        return $generation ?? $this->fetchGeneration();
    }

    /**
     * Pushed mode: generations expire with the local TTL unless the listener
     * renews them, so that a host without a listener still learns of a
     * dropped namespace within $localTtl. Polled mode: the poll renews them.
     */
    private function generationTtl(): int
    {
        return $this->shared->pushesInvalidations() ? $this->local->ttl : 0;
    }

    private function publish(string $message): void
    {
        try {
            $this->shared->publish($message);
        } catch (SharedTierException $e) {
            // The write stands; other hosts see it when their copies expire ($localTtl).
            $this->failed($e);
        }
    }

    private function failed(SharedTierException $e): void
    {
        $this->stats['errors']++;
        if ($this->onError !== null) {
            ($this->onError)($e);
        }
    }
}
