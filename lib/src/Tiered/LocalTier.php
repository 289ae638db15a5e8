<?php

declare(strict_types=1);

namespace Resident\Tiered;

use Psr\Log\LoggerInterface;
use Resident\Cache;
use Resident\Support\StorageKey;
use Resident\Support\Writes;

/**
 * The local tier: one Resident pool on this host, shared by its php-fpm
 * workers and its listener (bin/resident-invalidator). Entries:
 *
 *   "d:{namespace}:{key}"  [generation, value, expiresAt, freshUntil]: a
 *                          copy of the shared value, filled at that
 *                          generation; fresh for the local TTL (until
 *                          freshUntil, ms), then kept for the stale TTL
 *                          more, to be served only while the shared tier
 *                          cannot be asked
 *   "g:{namespace}"        the namespace's generation as this host knows it;
 *                          only ever moves forward
 *   "p:{namespace}"        when a worker last polled the generation (ms;
 *                          polled mode only): one worker per interval polls
 *   "s:{n}"                invalidation counters, 64 buckets of keys, that
 *                          let a fill detect an invalidation that raced it
 *   "c"                    a random number drawn at each clear(), so that a
 *                          fill also detects a clear that raced it
 *   "b:..."                the circuit breaker's state (CircuitBreaker)
 *
 * The pool belongs to Tiered: the listener clears all of it on (re)connect.
 */
final class LocalTier
{
    private const SEQUENCE_BUCKETS = 64;

    /**
     * @param int $ttl      seconds a copy is fresh: served without asking the shared tier
     * @param int $staleTtl seconds a copy is kept after that, served only while the shared tier cannot be asked (0: not kept)
     */
    public function __construct(
        public readonly Cache $pool,
        public readonly int $ttl,
        public readonly int $staleTtl = 0,
        private readonly ?LoggerInterface $logger = null,
    ) {
        if ($ttl < 1) {
            throw new \InvalidArgumentException("The local TTL must be at least 1 second, $ttl given: it is what bounds staleness when the listener is down");
        }
        if ($staleTtl < 0) {
            throw new \InvalidArgumentException("The stale TTL must be 0 or more seconds, $staleTtl given");
        }
    }

    /**
     * Everything a read needs, in one lookup of the pool.
     *
     * @return array{0: ?array{0: int, 1: mixed, 2: int, 3: int}, 1: ?int, 2: ?int} [entry, generation, last poll]
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

        // An entry of a version without freshUntil is stale.
        $entry = \is_array($entry) && \count($entry) >= 3 ? [$entry[0], $entry[1], $entry[2], $entry[3] ?? 0] : null;

        return [$entry, \is_int($generation) ? $generation : null, \is_int($polledAt) ? $polledAt : null];
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
        if ($this->keep($id, $generation, $value, $expiresAt, true) && $this->sequence($namespace, $key) !== $sequence) {
            $this->pool->delete($id);
        }
    }

    /** A value this host just wrote to the shared tier. */
    public function put(string $namespace, string $key, int $generation, mixed $value, int $expiresAt): void
    {
        // Counts as an invalidation: a fill of the older value in flight drops itself.
        $this->pool->increment(self::sequenceKey($namespace, $key));
        if (!$this->keep(self::dataKey($namespace, $key), $generation, $value, $expiresAt, true)) {
            $this->pool->delete(self::dataKey($namespace, $key));
        }
    }

    /**
     * A value this host could not write to the shared tier: kept stale, so
     * that it is served only while the shared tier cannot be asked (once it
     * can, its value is the one read). Counts as an invalidation, as put().
     */
    public function putStale(string $namespace, string $key, int $generation, mixed $value, int $expiresAt): void
    {
        $this->pool->increment(self::sequenceKey($namespace, $key));
        if ($this->staleTtl === 0 || !$this->keep(self::dataKey($namespace, $key), $generation, $value, $expiresAt, false)) {
            $this->pool->delete(self::dataKey($namespace, $key));
        }
    }

    /** Whether $entry may be served while it is fresh. */
    public static function fresh(array $entry): bool
    {
        return Payload::now() < $entry[3] && !Payload::expired($entry[2]);
    }

    private function keep(string $id, int $generation, mixed $value, int $expiresAt, bool $fresh): bool
    {
        $now = Payload::now();
        $freshUntil = $fresh ? $now + $this->ttl * 1000 : 0;
        if ($expiresAt !== 0) {
            $freshUntil = min($freshUntil, $expiresAt);
        }

        return Writes::store($this->pool, $id, [$generation, $value, $expiresAt, $freshUntil], $this->ttlFor($expiresAt), $this->logger);
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
            Writes::store($this->pool, "g:$namespace", $generation, $ttl, $this->logger);
        }
    }

    /**
     * A generation a worker fetched itself because the host had none. add():
     * if the listener stored one meanwhile, it is at least as new.
     */
    public function offerGeneration(string $namespace, int $generation, int $ttl): void
    {
        Writes::add($this->pool, "g:$namespace", $generation, $ttl, $this->logger);
    }

    /** Whether this worker is the one to poll the generation now (the others keep the one they have). */
    public function claimPoll(string $namespace, ?int $polledAt, int $now): bool
    {
        return $polledAt === null
            ? Writes::add($this->pool, "p:$namespace", $now, 0, $this->logger)
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
        Writes::store($this->pool, 'c', random_int(1, 0x7fffffff), 0, $this->logger);
    }

    /** Seconds a copy may live here: fresh, then stale, or less if the value expires sooner. */
    private function ttlFor(int $expiresAt): int
    {
        $kept = $this->ttl + $this->staleTtl;
        if ($expiresAt === 0) {
            return $kept;
        }

        return max(1, min($kept, (int) ceil(($expiresAt - Payload::now()) / 1000)));
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
