<?php

declare(strict_types=1);

namespace Resident\Psr6;

use Psr\Cache\CacheItemInterface;
use Resident\Support\Ttl;

/**
 * An item of a CacheItemPool: made by its getItem(), saved by its save().
 *
 * Signatures are those of psr/cache 3 with untyped (mixed) parameters,
 * which also satisfies versions 1 and 2.
 */
final class CacheItem implements CacheItemInterface
{
    /** Unix time (with a fraction) after which the item is gone; null for the pool's default. */
    private ?float $expiry = null;

    /** @internal made by CacheItemPool */
    public function __construct(
        private readonly string $key,
        private mixed $value,
        private readonly bool $isHit,
    ) {
    }

    public function getKey(): string
    {
        return $this->key;
    }

    public function get(): mixed
    {
        return $this->value;
    }

    public function isHit(): bool
    {
        return $this->isHit;
    }

    public function set(mixed $value): static
    {
        $this->value = $value;

        return $this;
    }

    public function expiresAt(mixed $expiration): static
    {
        if ($expiration === null) {
            $this->expiry = null;
        } elseif ($expiration instanceof \DateTimeInterface) {
            $this->expiry = (float) $expiration->format('U.u');
        } else {
            throw new InvalidArgumentException(sprintf('Expiration must be a DateTimeInterface or null, %s given', get_debug_type($expiration)));
        }

        return $this;
    }

    public function expiresAfter(mixed $time): static
    {
        if ($time === null) {
            $this->expiry = null;
        } elseif (\is_int($time)) {
            $this->expiry = microtime(true) + $time;
        } elseif ($time instanceof \DateInterval) {
            $this->expiry = microtime(true) + Ttl::ofInterval($time);
        } else {
            throw new InvalidArgumentException(sprintf('Expiration must be an integer, a DateInterval or null, %s given', get_debug_type($time)));
        }

        return $this;
    }

    /** @internal */
    public function expiry(): ?float
    {
        return $this->expiry;
    }

    /** @internal */
    public function isExpired(): bool
    {
        return $this->expiry !== null && $this->expiry <= microtime(true);
    }

    /** @internal a deferred item as later reads see it: a hit with the same value and expiry */
    public function asHit(): self
    {
        $hit = new self($this->key, $this->value, true);
        $hit->expiry = $this->expiry;

        return $hit;
    }
}
