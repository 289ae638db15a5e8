<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * Entries in APCu, shared by the processes of one php-fpm master like the
 * extension's segment. Each pool is a key prefix; the length of the pool
 * name is part of it, so that pool "a:b" and pool "a" never share keys.
 *
 * @internal
 */
final class ApcuStorage implements Storage
{
    /** APCu keeps TTLs in 32 bits: a longer one makes the entry expired at once. */
    private const MAX_TTL = 2147483647;

    private readonly string $namespace;

    public function __construct(string $pool)
    {
        $this->namespace = 'resident:' . \strlen($pool) . ':' . $pool . ':';
    }

    public static function isUsable(): bool
    {
        // apcu_enabled() is false in the CLI unless apc.enable_cli=1.
        return \function_exists('apcu_enabled') && apcu_enabled();
    }

    public function fetch(string $key, ?bool &$found): mixed
    {
        $value = apcu_fetch($this->namespace . $key, $success);
        $found = $success;

        return $success ? $value : null;
    }

    public function exists(string $key): bool
    {
        return apcu_exists($this->namespace . $key);
    }

    public function store(string $key, mixed $encoded, int $ttl): bool
    {
        return apcu_store($this->namespace . $key, $encoded, min($ttl, self::MAX_TTL));
    }

    public function add(string $key, mixed $encoded, int $ttl): bool
    {
        return apcu_add($this->namespace . $key, $encoded, min($ttl, self::MAX_TTL));
    }

    public function compareAndSwap(string $key, int $old, int $new): bool
    {
        return apcu_cas($this->namespace . $key, $old, $new);
    }

    public function delete(string $key): bool
    {
        return apcu_delete($this->namespace . $key);
    }

    public function clear(): void
    {
        apcu_delete(new \APCUIterator($this->pattern(''), \APC_ITER_KEY));
    }

    public function keys(string $prefix): array
    {
        $keys = [];
        $skip = \strlen($this->namespace);
        foreach (new \APCUIterator($this->pattern($prefix), \APC_ITER_KEY) as $entry) {
            // The iterator also lists entries that expired but are not yet reclaimed.
            if (apcu_exists($entry['key'])) {
                $keys[] = substr($entry['key'], $skip);
            }
        }

        return $keys;
    }

    public function memory(): int
    {
        $bytes = 0;
        foreach (new \APCUIterator($this->pattern(''), \APC_ITER_MEM_SIZE) as $entry) {
            $bytes += $entry['mem_size'];
        }

        return $bytes;
    }

    public function kind(): string
    {
        return 'apcu';
    }

    private function pattern(string $prefix): string
    {
        return '/^' . preg_quote($this->namespace . $prefix, '/') . '/';
    }
}
