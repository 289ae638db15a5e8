<?php

declare(strict_types=1);

namespace Resident\Tiered;

use Resident\Tiered;

/**
 * The listener of one host (bin/resident-invalidator runs it): applies the
 * invalidations published on the shared tier's channel to this host's
 * local tier.
 *
 * - "k" messages drop a key's local copy; "g" messages move a namespace's
 *   local generation forward.
 * - It renews every namespace's local generation (their TTL is the local
 *   TTL) every third of the local TTL: while it runs, workers never ask
 *   Redis for a generation; when it stops, the generations expire and
 *   workers fetch them from Redis themselves.
 * - On every (re)connect it subscribes first, then clears the local tier
 *   (what was published while it was away is unknown) and resyncs the
 *   generations, so nothing published after the subscription is missed.
 * - Nothing it waits for is unbounded: its commands (the resync) have a
 *   deadline of $commandTimeout, and a heartbeat PINGs the subscription
 *   every $heartbeat seconds: a connection that has said nothing for
 *   $heartbeatTimeout is given up, even when TCP has not noticed (a hung
 *   Redis). It logs when it loses the connection, each retry, and when it
 *   has it again (with how long it was without).
 */
final class Invalidator
{
    private ?RespSubscriber $connection = null;
    private float $nextResync = 0.0;
    private float $nextHeartbeat = 0.0;

    /** When the connection was lost (microtime), while it is. */
    private ?float $lostAt = null;

    /** @var array{connects: int, keys: int, generations: int, ignored: int, errors: int} */
    private array $counts = ['connects' => 0, 'keys' => 0, 'generations' => 0, 'ignored' => 0, 'errors' => 0];

    /**
     * @param \Closure(): RespSubscriber $openSubscriber makes a subscriber on the node that carries the channel
     * @param \Closure(string): void|null $log one line per event worth telling (connects, errors)
     */
    public function __construct(
        private readonly LocalTier $local,
        private readonly RedisTier $shared,
        private readonly \Closure $openSubscriber,
        private readonly ?\Closure $log = null,
        private readonly float $commandTimeout = 1.0,
        private readonly float $heartbeat = 1.0,
        private readonly float $heartbeatTimeout = 3.0,
    ) {
        if ($commandTimeout <= 0 || $heartbeat <= 0 || $heartbeatTimeout <= $heartbeat) {
            throw new \InvalidArgumentException(sprintf('The listener needs a command timeout and a heartbeat above 0 s, and a heartbeat timeout above the heartbeat (%.1f, %.1f and %.1f s given)',
                $commandTimeout, $heartbeat, $heartbeatTimeout));
        }
    }

    /** Subscribes, clears the local tier and resyncs the generations. */
    public function connect(): void
    {
        $this->disconnect();
        $subscriber = ($this->openSubscriber)();
        $subscriber->subscribe($this->shared->channel());
        $this->connection = $subscriber;
        $this->local->clear();
        try {
            $resynced = $this->resync();
        } catch (SharedTierException $e) {
            // Not connected until resynced: the next attempt clears and resyncs again.
            $this->disconnect();

            throw $e;
        }
        $this->counts['connects']++;
        $this->nextHeartbeat = microtime(true) + $this->heartbeat;
        $this->log(sprintf('%s %s on %s%s; local tier cleared; %d namespace generation(s) resynced',
            $this->lostAt === null ? 'subscribed to' : 'connected again: subscribed to', $this->shared->channel(), $subscriber->address,
            $this->lostAt === null ? '' : sprintf(' after %.1f s without', microtime(true) - $this->lostAt), $resynced));
        $this->lostAt = null;
    }

    public function disconnect(): void
    {
        $this->connection?->close();
        $this->connection = null;
    }

    /**
     * Applies what arrives within $timeout seconds, or the first $max
     * messages (connecting first if needed); returns how many messages.
     * Throws SharedTierException when the connection or Redis fails: run()
     * reconnects then.
     */
    public function step(float $timeout, int $max = \PHP_INT_MAX): int
    {
        if ($this->connection === null) {
            $this->connect();
        }
        $deadline = microtime(true) + $timeout;
        $applied = 0;
        try {
            $this->receive($deadline, $max, $applied);
        } catch (SharedTierException $e) {
            // The next step starts afresh (and so clears and resyncs).
            if ($this->lostAt === null) {
                $this->lostAt = microtime(true);
                $this->log(sprintf('lost the connection to %s: %s', $this->connection?->address ?? 'Redis', $e->getMessage()));
            }
            $this->disconnect();

            throw $e;
        }

        return $applied;
    }

    private function receive(float $deadline, int $max, int &$applied): void
    {
        while ($applied < $max && ($now = microtime(true)) < $deadline) {
            if ($now >= $this->nextHeartbeat) {
                // A connection that stopped answering pings is dead, even if TCP has not noticed.
                if ($this->connection->idleFor() > $this->heartbeatTimeout) {
                    throw new SharedTierException(sprintf('Redis: no answer from %s for %.1f s', $this->connection->address, $this->connection->idleFor()));
                }
                $this->connection->ping();
                $this->nextHeartbeat = $now + $this->heartbeat;
            }
            if ($now >= $this->nextResync) {
                $this->resync();
            }
            $message = $this->connection->next(min($deadline, $this->nextResync, $this->nextHeartbeat) - $now);
            if ($message !== null) {
                $this->apply($message);
                $applied++;
            }
        }
    }

    /**
     * Runs until $running() says to stop (checked at least every second):
     * reconnects after failures, waiting 0.1 s, doubling up to 5 s.
     *
     * @param \Closure(): bool|null $running
     */
    public function run(?\Closure $running = null): void
    {
        $backoff = 0.1;
        while ($running === null || $running()) {
            try {
                $this->step(1.0);
                $backoff = 0.1;
            } catch (SharedTierException $e) {
                $this->counts['errors']++;
                $this->log(sprintf('%s; reconnecting in %.1f s%s', $e->getMessage(), $backoff,
                    $this->lostAt === null ? '' : sprintf(' (without Redis for %.1f s)', microtime(true) - $this->lostAt)));
                usleep((int) ($backoff * 1e6));
                $backoff = min(5.0, $backoff * 2);
            }
        }
        $this->disconnect();
    }

    /** Applies one message to the local tier; false if it is not one of ours. */
    public function apply(string $message): bool
    {
        $decoded = Message::decode($message);
        if ($decoded === null) {
            $this->counts['ignored']++;

            return false;
        }
        [$type, $namespace, $argument] = $decoded;
        if ($type === 'k') {
            $this->local->forget($namespace, $argument);
            $this->counts['keys']++;
        } else {
            $this->local->raiseGeneration($namespace, $argument, $this->local->ttl);
            $this->counts['generations']++;
        }

        return true;
    }

    /** @return array{connects: int, keys: int, generations: int, ignored: int, errors: int} */
    public function counts(): array
    {
        return $this->counts;
    }

    /** Renews every namespace's local generation from Redis; returns how many. */
    private function resync(): int
    {
        $count = 0;
        $this->shared->callBy(microtime(true) + $this->commandTimeout);
        try {
            $generations = $this->shared->generations();
        } finally {
            $this->shared->callBy(null);
        }
        foreach ($generations as $namespace => $generation) {
            // PHP turns a numeric namespace name into an integer array key.
            $namespace = (string) $namespace;
            try {
                Tiered::checkNamespace($namespace);
            } catch (\InvalidArgumentException) {
                continue;
            }
            $this->local->raiseGeneration($namespace, $generation, $this->local->ttl);
            $count++;
        }
        $this->nextResync = microtime(true) + $this->resyncInterval();

        return $count;
    }

    private function resyncInterval(): float
    {
        return max(0.1, $this->local->ttl / 3);
    }

    private function log(string $line): void
    {
        if ($this->log !== null) {
            ($this->log)($line);
        }
    }
}
