<?php

declare(strict_types=1);

namespace Resident\Tiered;

use Resident\Cache;
use Resident\Support\Writes;

/**
 * When the shared tier keeps failing, stop asking it for a while: after
 * $failures failures in a row, every call skips it for a cool-down, then
 * one call (the probe) tries it again; a success closes the breaker, a
 * failure opens it for twice as long, up to $maxCooldown.
 *
 * Its state lives in the local pool, so every worker of a host shares it:
 * one worker's failures spare the others their timeouts, which matters
 * under php-fpm, where a worker's Tiered lives for one request. Entries,
 * under "b:{scope}":
 *   ":n"  failures in a row (an integer, incremented atomically)
 *   ":o"  [until, cooldown] while open: milliseconds
 *   ":p"  held by the worker whose probe is under way
 * A pool whose state is lost (cleared by the listener) starts closed.
 */
final class CircuitBreaker
{
    /** Seconds a probe may hold its turn: far longer than any call's deadline. */
    private const PROBE_SECONDS = 5;

    private readonly string $failuresKey;
    private readonly string $openKey;
    private readonly string $probeKey;

    /** Whether the last allow() saw failures or an open breaker: then a success has something to reset. */
    private bool $troubled = false;

    /**
     * @param string $scope       names the shared tier among others the pool may serve
     * @param int    $failures    failures in a row that open the breaker
     * @param float  $cooldown    seconds it first stays open
     * @param float  $maxCooldown seconds it stays open at most, however often probes fail: the longest a
     *                            recovered shared tier goes unused
     */
    public function __construct(
        private readonly Cache $pool,
        string $scope,
        public readonly int $failures = 3,
        public readonly float $cooldown = 0.1,
        public readonly float $maxCooldown = 1.0,
    ) {
        if ($failures < 1) {
            throw new \InvalidArgumentException("The breaker's failures must be at least 1, $failures given");
        }
        if ($cooldown <= 0 || $maxCooldown < $cooldown) {
            throw new \InvalidArgumentException("The breaker's cool-downs must be positive, the first ($cooldown s) at most the longest ($maxCooldown s)");
        }
        $base = 'b:' . $scope;
        $this->failuresKey = $base . ':n';
        $this->openKey = $base . ':o';
        $this->probeKey = $base . ':p';
    }

    /**
     * Whether the shared tier may be asked now: the breaker is closed, or
     * its cool-down is over and this caller got the probe.
     */
    public function allow(): bool
    {
        $state = $this->pool->fetchMultiple([$this->failuresKey, $this->openKey]);
        $open = $state[$this->openKey] ?? null;
        $this->troubled = isset($state[$this->failuresKey]) || $open !== null;
        if (!\is_array($open)) {
            return true;
        }
        if (Payload::now() < $open[0]) {
            return false;
        }

        return Writes::add($this->pool, $this->probeKey, getmypid(), self::PROBE_SECONDS);
    }

    /**
     * The call went through.
     *
     * @return bool whether this closed an open breaker
     */
    public function success(): bool
    {
        if (!$this->troubled) {
            return false;
        }
        $this->troubled = false;
        $wasOpen = $this->pool->exists($this->openKey);
        $this->pool->deleteMultiple([$this->failuresKey, $this->openKey, $this->probeKey]);

        return $wasOpen;
    }

    /**
     * The call failed.
     *
     * @return float|null seconds the breaker is now open for, when this failure opened it (again)
     */
    public function failure(): ?float
    {
        $this->troubled = true;
        $count = $this->pool->increment($this->failuresKey);
        if ($count < $this->failures) {
            return null;
        }
        $open = $this->pool->fetch($this->openKey);
        $cooldown = \is_array($open) ? min($this->maxCooldown * 1000, $open[1] * 2) : $this->cooldown * 1000;
        Writes::store($this->pool, $this->openKey, [Payload::now() + (int) $cooldown, (int) $cooldown], 0);
        $this->pool->delete($this->probeKey);

        return $cooldown / 1000;
    }

    /** Whether the breaker is open now (for stats and tests). */
    public function isOpen(): bool
    {
        $open = $this->pool->fetch($this->openKey);

        return \is_array($open) && Payload::now() < $open[0];
    }
}
