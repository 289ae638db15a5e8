<?php

declare(strict_types=1);

namespace Resident\Tiered;

use Resident\Cache;
use Resident\Support\StorageKey;
use Resident\Support\Writes;

/**
 * The local tier: one Resident pool on this host, shared by its php-fpm
 * workers and its listener (bin/resident-invalidator). Entries:
 *
 *   "d:{namespace}:{key}"  [generation, value, expiresAt]: a copy of the
 *                          shared value, filled at that generation; never
 *                          kept longer than the local TTL
 *   "g:{namespace}"        the namespace's generation as this host knows it;
 *                          only ever moves forward
 *   "p:{namespace}"        when a worker last polled the generation (ms;
 *                          polled mode only): one worker per interval polls
 *   "s:{n}"                invalidation counters, 64 buckets of keys, that
 *                          let a fill detect an invalidation that raced it
 *   "c"                    a random number drawn at each clear(), so that a
 *                          fill also detects a clear that raced it
 *
 * The pool belongs to Tiered: the listener clears all of it on (re)connect.
 */
final class LocalTier
{
    private const SEQUENCE_BUCKETS = 64;

    public function __construct(public readonly Cache $pool, public readonly int $ttl)
    {
        if ($ttl < 1) {
            throw new \InvalidArgumentException('The local TTL must be at least 1 second: it is what bounds staleness when the listener is down');
        }
    }

    /**
     * Everything a read needs, in one lookup of the pool.
     *
     * @return array{0: ?array{0: int, 1: mixed, 2: int}, 1: ?int, 2: ?int} [entry, generation, last poll]
     */
    public function read(string $namespace, string $key, bool $polled): array
    {
        $ids = [self::dataKey($namespace, $key), "g:$namespace"];
        if ($polled) {
            $ids[] = "p:$namespace";
        }
        $found = $this->pool->fetchMultiple($ids);
        $entry = $found[$ids[0]] ?? null;
        $generation = $found[$ids[1]] ?? null;
        $polledAt = $polled ? ($found[$ids[2]] ?? null) : null;

        return [\is_array($entry) ? $entry : null, \is_int($generation) ? $generation : null, \is_int($polledAt) ? $polledAt : null];
    }

    /**
     * The namespace's generation as this host knows it, for a write.
     *
     * @return array{0: ?int, 1: ?int} [generation, last poll]
     */
    public function generation(string $namespace, bool $polled): array
    {
        $found = $this->pool->fetchMultiple($polled ? ["g:$namespace", "p:$namespace"] : ["g:$namespace"]);
        $generation = $found["g:$namespace"] ?? null;
        $polledAt = $found["p:$namespace"] ?? null;

        return [\is_int($generation) ? $generation : null, \is_int($polledAt) ? $polledAt : null];
    }

    /**
     * The invalidation counter of $key's bucket and the clear number, to
     * read before fetching from the shared tier: fill() compares it again.
     */
    public function sequence(string $namespace, string $key): int
    {
        $id = self::sequenceKey($namespace, $key);
        $found = $this->pool->fetchMultiple([$id, 'c']);

        return ((int) ($found['c'] ?? 0) << 32) | ((int) ($found[$id] ?? 0) & 0xffffffff);
    }

    /**
     * Keeps a copy of a value just read from the shared tier. If the key's
     * bucket saw an invalidation since $sequence was read, the value read
     * may be older than that invalidation: the copy is dropped again, so
     * that the invalidation is not undone by a fill that started before it.
     */
    public function fill(string $namespace, string $key, int $generation, mixed $value, int $expiresAt, int $sequence): void
    {
        $id = self::dataKey($namespace, $key);
        if (Writes::store($this->pool, $id, [$generation, $value, $expiresAt], $this->ttlFor($expiresAt))
            && $this->sequence($namespace, $key) !== $sequence) {
            $this->pool->delete($id);
        }
    }

    /** A value this host just wrote to the shared tier. */
    public function put(string $namespace, string $key, int $generation, mixed $value, int $expiresAt): void
    {
        // Counts as an invalidation: a fill of the older value in flight drops itself.
        $this->pool->increment(self::sequenceKey($namespace, $key));
        if (!Writes::store($this->pool, self::dataKey($namespace, $key), [$generation, $value, $expiresAt], $this->ttlFor($expiresAt))) {
            $this->pool->delete(self::dataKey($namespace, $key));
        }
    }

    /** Drops this host's copy of $key (counter first: see fill()). */
    public function forget(string $namespace, string $key): void
    {
        $this->pool->increment(self::sequenceKey($namespace, $key));
        $this->pool->delete(self::dataKey($namespace, $key));
    }

    /**
     * Moves the namespace's local generation forward to $generation (or
     * renews it at the same one, with a fresh TTL); never back. The
     * listener and the poller are the only writers of an existing
     * generation entry, one at a time, so a read then a store is enough.
     *
     * @param int $ttl seconds, 0 for none
     */
    public function raiseGeneration(string $namespace, int $generation, int $ttl): void
    {
        $current = $this->pool->fetch("g:$namespace");
        if (!\is_int($current) || $generation >= $current) {
            Writes::store($this->pool, "g:$namespace", $generation, $ttl);
        }
    }

    /**
     * A generation a worker fetched itself because the host had none. add():
     * if the listener stored one meanwhile, it is at least as new.
     */
    public function offerGeneration(string $namespace, int $generation, int $ttl): void
    {
        Writes::add($this->pool, "g:$namespace", $generation, $ttl);
    }

    /** Whether this worker is the one to poll the generation now (the others keep the one they have). */
    public function claimPoll(string $namespace, ?int $polledAt, int $now): bool
    {
        return $polledAt === null
            ? Writes::add($this->pool, "p:$namespace", $now, 0)
            : $this->pool->cas("p:$namespace", $polledAt, $now);
    }

    /**
     * Everything: what the listener does when it cannot know what it
     * missed. A fill that read the shared tier before the clear and keeps
     * its copy after it sees a new clear number, and drops that copy.
     */
    public function clear(): void
    {
        $this->pool->clear();
        Writes::store($this->pool, 'c', random_int(1, 0x7fffffff), 0);
    }

    /** Seconds a copy may live here: the local TTL, or less if the value expires sooner. */
    private function ttlFor(int $expiresAt): int
    {
        if ($expiresAt === 0) {
            return $this->ttl;
        }

        return max(1, min($this->ttl, (int) ceil(($expiresAt - Payload::now()) / 1000)));
    }

    private static function dataKey(string $namespace, string $key): string
    {
        return StorageKey::encode("d:$namespace:$key");
    }

    private static function sequenceKey(string $namespace, string $key): string
    {
        return 's:' . (crc32("$namespace:$key") % self::SEQUENCE_BUCKETS);
    }
}
