<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * The fleet-wide tier behind the local Resident pool: Redis (pushed
 * invalidations) or Memcached (polled generations). Values reach it as
 * strings already serialized by Payload, so backends store bytes only.
 *
 * Every method throws SharedTierException when the backend fails; Tiered
 * decides what a failure means for the caller.
 */
interface SharedTier
{
    /** The backend's key for $key in generation $generation of $namespace. */
    public function key(string $namespace, int $generation, string $key): string;

    /** @return string|null the payload, or null when there is none */
    public function get(string $key): ?string;

    /** @param int $ttl seconds, 0 for none */
    public function set(string $key, string $payload, int $ttl): void;

    public function delete(string $key): void;

    /** The namespace's current generation, created if it has none yet. */
    public function generation(string $namespace): int;

    /** Moves the namespace to a new generation (its old keys become unreachable); returns it. */
    public function bump(string $namespace): int;

    /** @return array<string, int> every namespace's generation, for a listener's resync ([] if the backend cannot list them) */
    public function generations(): array;

    /** Whether invalidations are published to listeners (else hosts poll generations). */
    public function pushesInvalidations(): bool;

    /** Tells every host's listener; a no-op where nothing is pushed. */
    public function publish(string $message): void;
}
