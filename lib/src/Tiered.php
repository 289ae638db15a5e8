<?php

declare(strict_types=1);

namespace Resident;

use Psr\Log\LoggerInterface;
use Resident\Tiered\CallDeadline;
use Resident\Tiered\CircuitBreaker;
use Resident\Tiered\CircuitOpen;
use Resident\Tiered\LocalTier;
use Resident\Tiered\MemcachedTier;
use Resident\Tiered\Message;
use Resident\Tiered\Payload;
use Resident\Tiered\PayloadRefused;
use Resident\Tiered\RedisTier;
use Resident\Tiered\SharedTier;
use Resident\Tiered\SharedTierException;

/**
 * A two-tier cache for a fleet: this host's Resident pool in front of a
 * shared tier (Redis, or Memcached).
 *
 * Reads try the local tier, then the shared tier (keeping a copy locally,
 * fresh for $localTtl seconds), then the caller's compute (remember()).
 * Writes and deletes go to the shared tier, then to the local tier, then
 * are published to every host's listener (bin/resident-invalidator), which
 * drops its host's copy. A namespace is dropped everywhere at once by
 * moving it to a new generation: keys are stored per generation, and a
 * local copy filled at an older generation is not served.
 *
 * With Memcached nothing is published: hosts poll the namespace generation
 * every $pollMs, and another host's write is seen when the local copy
 * stops being fresh ($localTtl).
 *
 * When the shared tier fails: every call of this class waits for it at
 * most $deadline seconds in all (Redis); after a few failures in a row the
 * host stops asking it for a cool-down (CircuitBreaker), then one call
 * probes it; meanwhile reads are served from local copies, fresh or up to
 * $staleTtl seconds stale, and writes fail at once.
 */
final class Tiered
{
    private readonly LocalTier $local;
    private readonly SharedTier $shared;
    private readonly Payload $payload;
    private readonly CircuitBreaker $breaker;

    /** When the current call must be over (microtime), for the shared tier's commands. */
    private float $callDeadline = 0.0;

    /** @var array{local_hits: int, stale_hits: int, shared_hits: int, misses: int, writes: int, errors: int, skipped: int} */
    private array $stats = ['local_hits' => 0, 'stale_hits' => 0, 'shared_hits' => 0, 'misses' => 0, 'writes' => 0, 'errors' => 0, 'skipped' => 0];

    /**
     * @param Cache|string $local     the local pool, or its name: give Tiered a pool of its own (the listener clears it)
     * @param SharedTier|\Redis|\RedisArray|\RedisCluster|\Memcached|\Closure(): (\Redis|\RedisArray|\RedisCluster) $shared
     *        the shared tier, a client of it, or a function that makes a connected Redis client (called again after failures)
     * @param int          $localTtl  seconds a local copy is fresh: the staleness bound when the listener is down
     * @param int          $pollMs    Memcached only: how often this host re-reads a namespace's generation
     * @param string       $prefix    of the shared tier's keys and channel, when $shared is a client (the listener needs the same)
     * @param \Closure(SharedTierException): void|null $onError told about each failure of the shared tier, which Tiered otherwise absorbs
     * @param float        $deadline  seconds one call may wait for the shared tier in all (Redis: set on the client before each command)
     * @param int          $staleTtl  seconds a local copy is kept past $localTtl, served only while the shared tier cannot be asked
     * @param list<class-string>|bool $allowedClasses classes values may hold objects of (false: none, true: any; see Payload)
     * @param string|null  $secret    signs what goes to the shared tier; every host needs the same (at least 32 bytes)
     * @param LoggerInterface|null $logger hears failures, the breaker opening and closing, refused payloads, a full local pool
     * @param int          $breakerFailures failures in a row after which the shared tier is skipped for a cool-down
     * @param float        $breakerCooldown seconds the longest cool-down lasts (the first lasts a tenth of it, each next one twice the last)
     */
    public function __construct(
        Cache|string $local,
        SharedTier|\Redis|\RedisArray|\RedisCluster|\Memcached|\Closure $shared,
        private readonly string $namespace = 'default',
        int $localTtl = 10,
        private readonly int $pollMs = 1000,
        string $prefix = 'resident:',
        private readonly ?\Closure $onError = null,
        private readonly float $deadline = 0.1,
        int $staleTtl = 60,
        private readonly array|bool $allowedClasses = false,
        #[\SensitiveParameter] private readonly ?string $secret = null,
        private readonly ?LoggerInterface $logger = null,
        int $breakerFailures = 3,
        float $breakerCooldown = 1.0,
    ) {
        self::checkNamespace($namespace);
        if ($pollMs < 1) {
            throw new \InvalidArgumentException("The generation poll interval must be at least 1 ms, $pollMs given");
        }
        if ($deadline <= 0) {
            throw new \InvalidArgumentException("The deadline must be more than 0 seconds, $deadline given");
        }
        $pool = $local instanceof Cache ? $local : Cache::pool($local);
        $this->local = new LocalTier($pool, $localTtl, $staleTtl, $logger);
        $this->shared = match (true) {
            $shared instanceof SharedTier => $shared,
            $shared instanceof \Memcached => new MemcachedTier($shared, $prefix),
            default => new RedisTier($shared, $prefix),
        };
        $this->payload = new Payload($allowedClasses, $secret);
        $scope = $this->shared::class . ':' . (property_exists($this->shared, 'prefix') ? $this->shared->prefix : '');
        $this->breaker = new CircuitBreaker($pool, $scope, $breakerFailures, $breakerCooldown / 10, $breakerCooldown);
    }

    /** The same tiers under another namespace. */
    public function withNamespace(string $namespace): self
    {
        return new self($this->local->pool, $this->shared, $namespace, $this->local->ttl, $this->pollMs, onError: $this->onError,
            deadline: $this->deadline, staleTtl: $this->local->staleTtl, allowedClasses: $this->allowedClasses, secret: $this->secret,
            logger: $this->logger, breakerFailures: $this->breaker->failures, breakerCooldown: $this->breaker->maxCooldown);
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
     * single flight across the fleet. While the shared tier cannot be
     * asked, a local copy up to $staleTtl seconds stale is returned, and a
     * value computed then is kept as such a copy.
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
     * False if the shared tier failed or was skipped (this host then keeps
     * the value as a stale copy only, served while the shared tier cannot
     * be asked), or the value cannot be stored (serialize() refuses it, or
     * it holds an object of a class not allowed).
     *
     * @param int $ttl seconds in the shared tier, 0 for none; local copies are fresh for at most $localTtl
     */
    public function set(string $key, mixed $value, int $ttl = 0): bool
    {
        if ($ttl < 0) {
            throw new \InvalidArgumentException("The TTL must be 0 (none) or more seconds, $ttl given");
        }
        $this->startCall();
        $expiresAt = Payload::expiry($ttl);
        try {
            $payload = $this->payload->encode($value, $expiresAt);
        } catch (PayloadRefused $e) {
            $this->failed($e);

            return false;
        } catch (\Exception) {
            return false;       // a closure or another value serialize() refuses
        }
        try {
            $generation = $this->viaShared(function () use ($key, $payload, $ttl): int {
                $generation = $this->generation();
                $this->shared->set($this->shared->key($this->namespace, $generation, $key), $payload, $ttl);

                return $generation;
            });
        } catch (SharedTierException $e) {
            $this->failed($e);
            // The shared value is unknown now: this host's copy may only stand in while the shared tier is out of reach.
            $this->local->putStale($this->namespace, $key, $this->local->generation($this->namespace, false)[0] ?? 0, $value, $expiresAt);

            return false;
        }
        $this->stats['writes']++;
        $this->local->put($this->namespace, $key, $generation, $value, $expiresAt);
        $this->publish(Message::key($this->namespace, $key));

        return true;
    }

    /** Deletes from the shared tier, then here, then tells the other hosts. False if the shared tier failed or was skipped. */
    public function delete(string $key): bool
    {
        $this->startCall();
        try {
            $this->viaShared(fn () => $this->shared->delete($this->shared->key($this->namespace, $this->generation(), $key)));
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
     * Returns the new generation, or false if the shared tier failed or was skipped.
     */
    public function clear(): int|false
    {
        $this->startCall();
        try {
            $generation = $this->viaShared(fn (): int => $this->shared->bump($this->namespace));
        } catch (SharedTierException $e) {
            $this->failed($e);

            return false;
        }
        $this->local->raiseGeneration($this->namespace, $generation, $this->generationTtl());
        $this->publish(Message::generation($this->namespace, $generation));

        return $generation;
    }

    /**
     * Where this object's reads were served from, its failures, and its
     * calls that skipped the shared tier while the breaker was open.
     *
     * @return array{local_hits: int, stale_hits: int, shared_hits: int, misses: int, writes: int, errors: int, skipped: int}
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

    public function breaker(): CircuitBreaker
    {
        return $this->breaker;
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
        $this->startCall();
        $polled = !$this->shared->pushesInvalidations();
        [$entry, $generation, $polledAt] = $this->local->read($this->namespace, $key, $polled);
        // A fresh copy at the generation this host knows needs nothing of the shared tier.
        $known = $generation !== null && (!$polled || ($polledAt !== null && Payload::now() - $polledAt < $this->pollMs));
        if ($known && $entry !== null && $entry[0] >= $generation && LocalTier::fresh($entry)) {
            $this->stats['local_hits']++;

            return [$entry[1]];
        }
        try {
            [$generation, $sequence, $payload] = $this->viaShared(function () use ($key, $entry, $generation, $polledAt, $polled): array {
                $generation = $polled ? $this->polledGeneration($generation, $polledAt) : ($generation ?? $this->fetchGeneration());
                if ($entry !== null && $entry[0] >= $generation && LocalTier::fresh($entry)) {
                    return [$generation, 0, $entry];
                }
                $sequence = $this->local->sequence($this->namespace, $key);

                return [$generation, $sequence, $this->shared->get($this->shared->key($this->namespace, $generation, $key))];
            });
        } catch (SharedTierException $e) {
            $this->failed($e);

            return $this->stale($entry, $generation);
        }
        if (\is_array($payload)) {
            // The local copy, fresh at the generation just learnt.
            $this->stats['local_hits']++;

            return [$payload[1]];
        }
        try {
            $decoded = $payload === null ? null : $this->payload->decode($payload);
        } catch (PayloadRefused $e) {
            $this->failed($e);
            $decoded = null;
        }
        if ($decoded === null || Payload::expired($decoded[1])) {
            $this->stats['misses']++;

            return null;
        }
        $this->stats['shared_hits']++;
        $this->local->fill($this->namespace, $key, $generation, $decoded[0], $decoded[1], $sequence);

        return [$decoded[0]];
    }

    /**
     * The shared tier cannot be asked: the local copy, if it has not
     * expired and belongs to the generation this host knows (any, if it
     * knows none any more), however long ago it stopped being fresh (it is
     * kept $staleTtl seconds).
     *
     * @param array{0: int, 1: mixed, 2: int, 3: int}|null $entry
     * @return array{0: mixed}|null
     */
    private function stale(?array $entry, ?int $generation): ?array
    {
        if ($entry === null || Payload::expired($entry[2]) || ($generation !== null && $entry[0] < $generation)) {
            $this->stats['misses']++;

            return null;
        }
        $this->stats[LocalTier::fresh($entry) ? 'local_hits' : 'stale_hits']++;

        return [$entry[1]];
    }

    /**
     * Runs $work on the shared tier if the breaker allows, within the
     * current call's deadline; tells the breaker how it went.
     *
     * @template T
     * @param \Closure(): T $work
     * @return T
     * @throws SharedTierException
     */
    private function viaShared(\Closure $work): mixed
    {
        if (!$this->breaker->allow()) {
            throw new CircuitOpen('the shared tier is skipped: the circuit breaker is open after failures');
        }
        $bounded = $this->shared instanceof CallDeadline ? $this->shared : null;
        $bounded?->callBy($this->callDeadline);
        try {
            $result = $work();
        } catch (SharedTierException $e) {
            $cooldown = $this->breaker->failure();
            if ($cooldown !== null) {
                $this->logger?->error('Resident\Tiered: the shared tier failed {failures} time(s) in a row ({message}): skipped for {cooldown} s', [
                    'failures' => $this->breaker->failures, 'message' => $e->getMessage(), 'cooldown' => $cooldown, 'exception' => $e,
                ]);
            }

            throw $e;
        } finally {
            $bounded?->callBy(null);
        }
        if ($this->breaker->success()) {
            $this->logger?->notice('Resident\Tiered: the shared tier answers again');
        }

        return $result;
    }

    private function startCall(): void
    {
        $this->callDeadline = microtime(true) + $this->deadline;
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
            $this->viaShared(fn () => $this->shared->publish($message));
        } catch (SharedTierException $e) {
            // The write stands; other hosts see it when their copies stop being fresh ($localTtl).
            $this->failed($e);
        }
    }

    private function failed(SharedTierException $e): void
    {
        if ($e instanceof CircuitOpen) {
            $this->stats['skipped']++;

            return;
        }
        $this->stats['errors']++;
        if ($e instanceof PayloadRefused) {
            $this->logger?->error('Resident\Tiered: refused {message}', ['message' => $e->getMessage(), 'namespace' => $this->namespace]);
        } else {
            $this->logger?->warning('Resident\Tiered: {message}', ['message' => $e->getMessage(), 'exception' => $e]);
        }
        if ($this->onError !== null) {
            ($this->onError)($e);
        }
    }
}
