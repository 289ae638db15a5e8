<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * Entries in a PHP array: they last as long as the process (one request
 * under php-fpm, the whole run of a CLI script). Every Cache object of a
 * pool sees the same entries.
 *
 * @internal
 */
final class ArrayStorage implements Storage
{
    /** @var array<string, array<string, array{0: mixed, 1: float}>> pool => key => [encoded value, expiry or 0.0] */
    private static array $entries = [];

    public function __construct(private readonly string $pool)
    {
        self::$entries[$pool] ??= [];
    }

    public function fetch(string $key, ?bool &$found): mixed
    {
        $entry = $this->live($key);
        $found = $entry !== null;

        return $entry === null ? null : $entry[0];
    }

    public function exists(string $key): bool
    {
        return $this->live($key) !== null;
    }

    public function store(string $key, mixed $encoded, int $ttl): bool
    {
        self::$entries[$this->pool][$key] = [$encoded, $ttl === 0 ? 0.0 : microtime(true) + $ttl];

        return true;
    }

    public function add(string $key, mixed $encoded, int $ttl): bool
    {
        return $this->live($key) === null && $this->store($key, $encoded, $ttl);
    }

    public function compareAndSwap(string $key, int $old, int $new): bool
    {
        $entry = $this->live($key);
        if ($entry === null || $entry[0] !== $old) {
            return false;
        }
        self::$entries[$this->pool][$key][0] = $new;

        return true;
    }

    public function delete(string $key): bool
    {
        $existed = $this->live($key) !== null;
        unset(self::$entries[$this->pool][$key]);

        return $existed;
    }

    public function clear(): void
    {
        self::$entries[$this->pool] = [];
    }

    public function keys(string $prefix): array
    {
        $keys = [];
        foreach (self::$entries[$this->pool] as $key => $entry) {
            $key = (string) $key;
            if (str_starts_with($key, $prefix) && $this->live($key) !== null) {
                $keys[] = $key;
            }
        }

        return $keys;
    }

    public function memory(): int
    {
        $bytes = 0;
        foreach ($this->keys('') as $key) {
            $value = self::$entries[$this->pool][$key][0];
            $bytes += \strlen($key) + (\is_string($value) ? \strlen($value) : (\is_array($value) ? \strlen($value[0]) : 8));
        }

        return $bytes;
    }

    public function kind(): string
    {
        return 'array';
    }

    /** @return array{0: mixed, 1: float}|null the entry, unless it is missing or expired (then it is dropped) */
    private function live(string $key): ?array
    {
        $entry = self::$entries[$this->pool][$key] ?? null;
        if ($entry !== null && $entry[1] !== 0.0 && $entry[1] <= microtime(true)) {
            unset(self::$entries[$this->pool][$key]);
            Statistics::expired($this->pool);

            return null;
        }

        return $entry;
    }
}
