<?php

declare(strict_types=1);

namespace Resident;

use Resident\Polyfill\ApcuStorage;
use Resident\Polyfill\Arguments;
use Resident\Polyfill\ArrayStorage;
use Resident\Polyfill\Encoding;
use Resident\Polyfill\Statistics;
use Resident\Polyfill\Storage;

/**
 * The extension's Resident\Cache in PHP, for machines without the
 * extension: over APCu when it is enabled, else over a per-process array.
 * Same methods, arguments, results and errors; what differs (no zero-copy,
 * no single flight in remember(), statistics of this process only) is in
 * lib/README.md.
 */
final class Cache
{
    /** @var array<string, bool> pool name => pinned */
    private static array $pools = [];

    /** @var array<string, true> "pool\0key" of the remember() computes running */
    private static array $computing = [];

    private function __construct(
        private readonly string $name,
        private readonly Storage $storage,
    ) {
    }

    public static function pool(string $name = 'default', bool $pinned = false): Cache
    {
        Arguments::poolName($name);
        if ($pinned && isset(self::$pools[$name]) && !self::$pools[$name]) {
            throw Arguments::valueError('pool', 2, 'pinned', sprintf('cannot pin pool "%s": it already exists unpinned', $name));
        }
        self::$pools[$name] = (self::$pools[$name] ?? false) || $pinned;

        return new self($name, ApcuStorage::isUsable() ? new ApcuStorage($name) : new ArrayStorage($name));
    }

    public function name(): string
    {
        return $this->name;
    }

    public function store(string $key, mixed $value, int $ttl = 0): bool
    {
        Arguments::key($key, 'store');
        Arguments::ttl($ttl, 'store', 3);
        $encoded = Encoding::encode($value, 'store', 2, 'value', '$value');
        Statistics::stored($this->name);

        return $this->storage->store($key, $encoded, $ttl);
    }

    public function add(string $key, mixed $value, int $ttl = 0): bool
    {
        Arguments::key($key, 'add');
        Arguments::ttl($ttl, 'add', 3);
        $encoded = Encoding::encode($value, 'add', 2, 'value', '$value');
        if (!$this->storage->add($key, $encoded, $ttl)) {
            return false;
        }
        Statistics::stored($this->name);

        return true;
    }

    public function fetch(string $key, mixed $default = null): mixed
    {
        Arguments::key($key, 'fetch');
        $encoded = $this->storage->fetch($key, $found);
        if (!$found) {
            Statistics::miss($this->name);

            return $default;
        }
        Statistics::hit($this->name);

        return Encoding::decode($encoded);
    }

    public function exists(string $key): bool
    {
        Arguments::key($key, 'exists');

        return $this->storage->exists($key);
    }

    public function delete(string $key): bool
    {
        Arguments::key($key, 'delete');
        if (!$this->storage->delete($key)) {
            return false;
        }
        Statistics::deleted($this->name);

        return true;
    }

    /** @return list<int|string> the keys that could not be stored */
    public function storeMultiple(array $values, int $ttl = 0): array
    {
        Arguments::ttl($ttl, 'storeMultiple', 2);
        // Everything is checked before anything is stored, as the extension does.
        $encoded = [];
        foreach ($values as $key => $value) {
            if (\is_string($key)) {
                Arguments::key($key, 'storeMultiple', 1, 'values');
            }
            $encoded[$key] = Encoding::encode($value, 'storeMultiple', 1, 'values', '$values' . Encoding::keyPath($key));
        }
        $failed = [];
        foreach ($encoded as $key => $value) {
            if ($this->storage->store((string) $key, $value, $ttl)) {
                Statistics::stored($this->name);
            } else {
                $failed[] = $key;
            }
        }

        return $failed;
    }

    /** @return array<int|string, mixed> the hits, key => value */
    public function fetchMultiple(array $keys): array
    {
        $checked = [];
        foreach ($keys as $key) {
            $checked[] = Arguments::listedKey($key, 'fetchMultiple', 1, 'keys');
        }
        $hits = [];
        foreach ($checked as $key) {
            $encoded = $this->storage->fetch($key, $found);
            if ($found) {
                $hits[$key] = Encoding::decode($encoded);
            }
        }
        Statistics::hit($this->name, \count($hits));
        Statistics::miss($this->name, \count(array_unique($checked)) - \count($hits));

        return $hits;
    }

    public function deleteMultiple(array $keys): int
    {
        $checked = [];
        foreach ($keys as $key) {
            $checked[] = Arguments::listedKey($key, 'deleteMultiple', 1, 'keys');
        }
        $deleted = 0;
        foreach ($checked as $key) {
            $deleted += (int) $this->storage->delete($key);
        }
        Statistics::deleted($this->name, $deleted);

        return $deleted;
    }

    public function clear(): bool
    {
        $this->storage->clear();

        return true;
    }

    public function increment(string $key, int $step = 1, int $ttl = 0): int|false
    {
        return $this->count('increment', $key, $step, $ttl);
    }

    public function decrement(string $key, int $step = 1, int $ttl = 0): int|false
    {
        return $this->count('decrement', $key, $step, $ttl);
    }

    public function cas(string $key, int $old, int $new): bool
    {
        Arguments::key($key, 'cas');
        $current = $this->storage->fetch($key, $found);
        if (!$found) {
            return false;
        }
        if (!\is_int($current)) {
            throw new \TypeError(sprintf('Resident\Cache::cas(): key "%s" holds %s, not an integer', $key, Encoding::describe($current)));
        }

        return $this->storage->compareAndSwap($key, $old, $new);
    }

    /**
     * Without the extension there is no single flight: every caller that
     * misses runs $compute, and $staleTtl is checked but serves nothing.
     */
    public function remember(string $key, callable $compute, int $ttl = 0, int $staleTtl = 0): mixed
    {
        Arguments::key($key, 'remember');
        Arguments::ttl($ttl, 'remember', 3);
        Arguments::staleTtl($staleTtl, $ttl);
        $encoded = $this->storage->fetch($key, $found);
        if ($found) {
            Statistics::hit($this->name);

            return Encoding::decode($encoded);
        }
        Statistics::miss($this->name);
        // As the extension, whose single flight would make such a call wait for itself.
        $computing = $this->name . "\0" . $key;
        if (isset(self::$computing[$computing])) {
            throw new \Error(sprintf('Resident\Cache::remember(): the $compute of key "%s" asked for that key itself, and would wait for its own result', $key));
        }
        self::$computing[$computing] = true;
        try {
            $value = $compute();
        } finally {
            unset(self::$computing[$computing]);
        }
        $this->storage->store($key, Encoding::encode($value, 'remember', 2, 'compute', '$compute()'), $ttl);
        Statistics::stored($this->name);

        return $value;
    }

    /**
     * As the extension's: what $build returns, built once and kept, every
     * later call getting a copy on which $reset runs first. The polyfill
     * cannot tell of deploys (clear the pool when you deploy) and, as it
     * serializes, keeps no closure: an application holding closures needs
     * the extension.
     */
    public function keep(string $key, callable $build, ?callable $reset = null): mixed
    {
        Arguments::key($key, 'keep');
        $encoded = $this->storage->fetch($key, $found);
        if ($found) {
            Statistics::hit($this->name);
            $app = Encoding::decode($encoded)['app'];
        } else {
            Statistics::miss($this->name);
            $app = $build();
            $this->storage->store($key, Encoding::encode(['app' => $app], 'keep', 2, 'build', '$build()', 'app'), 0);
            Statistics::stored($this->name);
        }
        if ($reset !== null) {
            $reset($app);
        }

        return $app;
    }

    public function keys(string $prefix = ''): KeyIterator
    {
        return KeyIterator::fromKeys($this->storage->keys($prefix));
    }

    public function info(): array
    {
        return ['name' => $this->name, 'pinned' => self::$pools[$this->name] ?? false]
            + ['entries' => \count($this->storage->keys('')), 'memory' => $this->storage->memory()]
            + Statistics::of($this->name);
    }

    public static function status(): array
    {
        $entries = 0;
        $memory = 0;
        foreach (array_keys(self::$pools) as $name) {
            $pool = self::pool((string) $name);
            $entries += \count($pool->storage->keys(''));
            $memory += $pool->storage->memory();
        }

        return [
            'available' => true,
            'version' => '0.1.0',
            'polyfill' => ApcuStorage::isUsable() ? 'apcu' : 'array',
            'zero_copy' => 'copy',
            'memory_used' => $memory,
            'memory_live' => $memory,
            'entries' => $entries,
            'pools' => \count(self::$pools),
        ] + Statistics::total();
    }

    /** The statistics of status() in Prometheus' text format. */
    public static function metrics(): string
    {
        $status = self::status();
        $lines = [];
        foreach (['entries' => 'gauge', 'memory_used' => 'gauge', 'hits' => 'counter', 'misses' => 'counter', 'stores' => 'counter'] as $name => $type) {
            $metric = 'resident_' . ($name === 'memory_used' ? 'memory_used_bytes' : ($type === 'counter' ? "{$name}_total" : $name));
            $lines[] = "# TYPE $metric $type";
            $lines[] = "$metric {$status[$name]}";
        }

        return "# TYPE resident_up gauge\nresident_up 1\n" . implode("\n", $lines) . "\n";
    }

    /**
     * A long-running worker's quiescent point. Without the extension every
     * fetch returns the process's own copy: nothing is borrowed, nothing to
     * release.
     */
    public static function endOfRequest(): bool
    {
        return true;
    }

    /** Without the extension, statics are never kept: there is nothing to forget. */
    public static function forgetStatics(?string $class = null): int
    {
        return 0;
    }

    public function __clone()
    {
        throw new \Error('Trying to clone an uncloneable object of class Resident\Cache');
    }

    public function __serialize(): array
    {
        throw new \Exception("Serialization of 'Resident\\Cache' is not allowed");
    }

    public function __unserialize(array $data): void
    {
        throw new \Exception("Unserialization of 'Resident\\Cache' is not allowed");
    }

    /** The CAS loop of increment() and decrement(). */
    private function count(string $method, string $key, int $step, int $ttl): int|false
    {
        Arguments::key($key, $method);
        Arguments::ttl($ttl, $method, 3);
        $up = $method === 'increment';
        for ($attempt = 0; $attempt < 100; ++$attempt) {
            $current = $this->storage->fetch($key, $found);
            if ($found && !\is_int($current)) {
                throw new \TypeError(sprintf('Resident\Cache::%s(): key "%s" holds %s, not an integer', $method, $key, Encoding::describe($current)));
            }
            $next = self::apply($found ? $current : 0, $step, $up, $key);
            if ($found ? $this->storage->compareAndSwap($key, $current, $next) : $this->storage->add($key, $next, $ttl)) {
                return $next;
            }
            if (!$found && !$this->storage->exists($key)) {
                return false; // not stored, and nobody else created it: no room
            }
        }

        return false;
    }

    private static function apply(int $current, int $step, bool $up, string $key): int
    {
        $next = $up ? $current + $step : $current - $step;
        if (!\is_int($next)) {
            throw new \ArithmeticError(sprintf('%s of key "%s" by %d would overflow its value %d', $up ? 'Increment' : 'Decrement', $key, $step, $current));
        }

        return $next;
    }
}
