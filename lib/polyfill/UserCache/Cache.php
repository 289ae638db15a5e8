<?php

declare(strict_types=1);

namespace UserCache;

use Resident\Polyfill\ApcuStorage;
use Resident\Polyfill\ArrayStorage;
use Resident\Polyfill\Encoding;
use Resident\Polyfill\Storage;

/**
 * The ext-user_cache proposal's UserCache\Cache in PHP, for machines
 * without the extension: over APCu when it is enabled, else over a
 * per-process array, as the rest of the polyfill. Same methods, arguments,
 * results and errors as the extension's (docs/user-cache.md); what differs
 * is in lib/README.md.
 */
final class Cache
{
    private const DELIMITER = "\x1f";
    /** How long a write waits for another request's lock, as in the proposal. */
    private const WAIT_SECONDS = 10.0;

    /** @var array<string, Cache> this request's pools, by name */
    private static array $pools = [];

    /** @var array<string, array<string, bool>> pool => key => leased, the locks this request holds */
    private static array $held = [];
    /** @var array<string, array<string, true>> locks remember() took and will release, by pool */
    private static array $byRemember = [];

    private static ?string $token = null;
    private static ?int $tokenPid = null;
    private static bool $shutdownRegistered = false;

    private function __construct(
        private readonly string $pool,
        private readonly Storage $values,
        private readonly Storage $locks,
    ) {
    }

    public static function hasPool(string $pool): bool
    {
        self::checkPool($pool, 'hasPool');

        return isset(self::$pools[$pool]);
    }

    public static function getPool(string $pool): Cache
    {
        self::checkPool($pool, 'getPool');
        if (!isset(self::$pools[$pool])) {
            // Names in parentheses are never a Resident pool's: these cannot meet one.
            self::$pools[$pool] = new self($pool, self::storage("(user_cache:$pool)"), self::storage("(user_cache_locks:$pool)"));
        }

        return self::$pools[$pool];
    }

    public static function deletePool(string $pool): bool
    {
        self::checkPool($pool, 'deletePool');
        $cache = self::$pools[$pool] ?? new self($pool, self::storage("(user_cache:$pool)"), self::storage("(user_cache_locks:$pool)"));
        if (!$cache->clear()) {
            return false;
        }
        unset(self::$pools[$pool]);

        return true;
    }

    /** @return array<string|int, Cache> */
    public static function getPools(): array
    {
        return self::$pools;
    }

    public static function getStatus(): CacheStatus
    {
        return CacheStatus::take();
    }

    public function store(string $key, null|bool|int|float|string|array|object $value, int $ttl = 0): bool
    {
        $this->checkKey($key, 'store');
        self::checkNotNegative($ttl, 'store', 3, 'ttl');
        $encoded = self::encode($value, 'store');

        return $this->waitUnlocked($key) && $this->values->store($key, $encoded, $ttl);
    }

    public function add(string $key, null|bool|int|float|string|array|object $value, int $ttl = 0): bool
    {
        $this->checkKey($key, 'add');
        self::checkNotNegative($ttl, 'add', 3, 'ttl');
        $encoded = self::encode($value, 'add');

        return $this->waitUnlocked($key) && $this->values->add($key, $encoded, $ttl);
    }

    /** @param array<string, mixed> $values */
    public function storeMultiple(array $values, int $ttl = 0): bool
    {
        foreach ($values as $key => $value) {
            if (\is_string($key) && !self::validKey($key)) {
                throw self::valueError('storeMultiple', 1, 'values', 'must be an array with non-empty string or int keys that do not contain 0x1F');
            }
        }
        self::checkNotNegative($ttl, 'storeMultiple', 2, 'ttl');
        // Every value is checked before anything is written.
        $encoded = [];
        foreach ($values as $key => $value) {
            $encoded[(string) $key] = self::encode($value, 'storeMultiple');
        }
        foreach ($encoded as $key => $value) {
            if (!$this->waitUnlocked((string) $key)) {
                return false;
            }
        }
        // One that finds no room undoes the batch, as the extension does.
        $written = [];
        foreach ($encoded as $key => $value) {
            if (!$this->values->store((string) $key, $value, $ttl)) {
                foreach ($written as $done) {
                    $this->values->delete($done);
                }

                return false;
            }
            $written[] = (string) $key;
        }

        return true;
    }

    public function increment(string $key, int $step = 1, int $ttl = 0): ?int
    {
        return $this->count($key, $step, $ttl, 'increment');
    }

    public function decrement(string $key, int $step = 1, int $ttl = 0): ?int
    {
        return $this->count($key, $step, $ttl, 'decrement');
    }

    public function fetch(string $key, mixed $default = null): mixed
    {
        $this->checkKey($key, 'fetch');
        $encoded = $this->values->fetch($key, $found);

        return $found ? Encoding::decode($encoded) : $default;
    }

    /**
     * @param list<string> $keys
     * @return array<string|int, mixed> every key asked, in order, with $default for a miss
     */
    public function fetchMultiple(array $keys, mixed $default = null): array
    {
        self::checkKeyList($keys, 'fetchMultiple');
        $found = [];
        foreach ($keys as $key) {
            $encoded = $this->values->fetch((string) $key, $hit);
            $found[$key] = $hit ? Encoding::decode($encoded) : $default;
        }

        return $found;
    }

    /** True whether or not the key was there. */
    public function delete(string $key): bool
    {
        $this->checkKey($key, 'delete');
        if (!$this->waitUnlocked($key)) {
            return false;
        }
        $this->values->delete($key);

        return true;
    }

    /** @param list<string> $keys */
    public function deleteMultiple(array $keys): bool
    {
        self::checkKeyList($keys, 'deleteMultiple');
        $ok = true;
        foreach ($keys as $key) {
            if ($this->waitUnlocked((string) $key)) {
                $this->values->delete((string) $key);
            } else {
                $ok = false;
            }
        }

        return $ok;
    }

    /** This pool only; false while another request holds one of its locks. */
    public function clear(): bool
    {
        foreach ($this->locks->keys('') as $key) {
            if ($this->heldByOther($key)) {
                return false;
            }
        }
        $this->values->clear();

        return true;
    }

    public function has(string $key): bool
    {
        $this->checkKey($key, 'has');

        return $this->values->exists($key);
    }

    /** True when taken or already held; false while another request holds it. */
    public function lock(string $key, int $lease = 0): bool
    {
        $this->checkKey($key, 'lock');
        self::checkNotNegative($lease, 'lock', 2, 'lease');
        $max = (int) (ini_get('user_cache.lock_lease_max') ?: 3600);
        if ($max > 0 && $lease > $max) {
            $lease = $max;
        }

        if (isset(self::$byRemember[$this->pool][$key]) && $this->lockOwner($key) === self::token()) {
            // Taken in remember()'s callback: the lock is now the caller's (unleased, as remember() took it).
            unset(self::$byRemember[$this->pool][$key]);

            return true;
        }

        return $this->takeLock($key, $lease, false);
    }

    public function unlock(string $key): bool
    {
        $this->checkKey($key, 'unlock');
        if (!isset(self::$held[$this->pool][$key])) {
            return false;
        }
        unset(self::$held[$this->pool][$key]);
        if ($this->lockOwner($key) !== self::token()) {
            return false; // its lease ran out, and another may have taken it
        }
        $this->locks->delete($key);

        return true;
    }

    /** On a miss: takes the key's lock, calls $callback($key), stores and returns its result. */
    public function remember(string $key, callable $callback, int $ttl = 0): mixed
    {
        $this->checkKey($key, 'remember');
        self::checkNotNegative($ttl, 'remember', 3, 'ttl');
        $encoded = $this->values->fetch($key, $found);
        if ($found) {
            return Encoding::decode($encoded);
        }
        $mine = isset(self::$held[$this->pool][$key]) && $this->lockOwner($key) === self::token();
        $locked = !$mine && $this->takeLock($key, 0, true);
        if ($locked) {
            self::$byRemember[$this->pool][$key] = true;
        }
        try {
            if ($locked) {
                // Whoever held it may have stored the value meanwhile.
                $encoded = $this->values->fetch($key, $found);
                if ($found) {
                    return Encoding::decode($encoded);
                }
            }
            $value = $callback($key);
            $this->values->store($key, self::encode($value, 'remember'), $ttl);

            return $value;
        } finally {
            // Unless $callback took the lock with lock(): then it is the caller's.
            if ($locked && isset(self::$byRemember[$this->pool][$key])) {
                unset(self::$byRemember[$this->pool][$key]);
                $this->unlock($key);
            }
        }
    }

    public function getPoolStatus(): CachePoolStatus
    {
        return CachePoolStatus::of($this->pool, $this->values->keys(''), $this->values->memory());
    }

    public function __clone()
    {
        throw new \Error('Trying to clone an uncloneable object of class ' . self::class);
    }

    public function __serialize(): array
    {
        throw new \Exception("Serialization of '" . self::class . "' is not allowed");
    }

    public function __unserialize(array $data): void
    {
        throw new \Exception("Unserialization of '" . self::class . "' is not allowed");
    }

    private function count(string $key, int $step, int $ttl, string $method): ?int
    {
        $this->checkKey($key, $method);
        self::checkNotNegative($step, $method, 2, 'step');
        self::checkNotNegative($ttl, $method, 3, 'ttl');
        if (!$this->waitUnlocked($key)) {
            return null;
        }
        $what = ucfirst($method) . " of user cache key \"$key\"";
        for ($attempt = 0; $attempt < 100; $attempt++) {
            $current = $this->values->fetch($key, $found);
            if (!$found) {
                if ($this->values->add($key, $method === 'increment' ? $step : -$step, $ttl)) {
                    return $method === 'increment' ? $step : -$step;
                }
                continue; // created meanwhile: add to that one
            }
            if (!\is_int($current)) {
                throw new \ValueError("$what requires the stored value to be an integer");
            }
            $next = $method === 'increment' ? $current + $step : $current - $step;
            if (!\is_int($next)) {
                throw new \ArithmeticError("$what would exceed the range of a PHP integer");
            }
            if ($this->values->compareAndSwap($key, $current, $next)) {
                return $next;
            }
        }

        return null;
    }

    private function takeLock(string $key, int $lease, bool $wait): bool
    {
        $token = self::token();
        if (isset(self::$held[$this->pool][$key])) {
            if ($this->lockOwner($key) === $token) {
                return true;
            }
            unset(self::$held[$this->pool][$key]); // its lease ran out
        }
        $deadline = microtime(true) + self::WAIT_SECONDS;
        for (;;) {
            if ($this->locks->add($key, ($lease > 0 ? 'L' : 'U') . $token, $lease)) {
                self::$held[$this->pool][$key] = $lease > 0;
                self::registerShutdown();

                return true;
            }
            if (!$this->heldByOther($key)) {
                continue; // gone meanwhile, or its dead owner's lock was dropped
            }
            if (!$wait || microtime(true) >= $deadline) {
                return false;
            }
            usleep(1000);
        }
    }

    /** Writers wait while another request holds the key's lock: false after 10 s. */
    private function waitUnlocked(string $key): bool
    {
        $deadline = null;
        while ($this->heldByOther($key)) {
            $deadline ??= microtime(true) + self::WAIT_SECONDS;
            if (microtime(true) >= $deadline) {
                return false;
            }
            usleep(1000);
        }

        return true;
    }

    /** Another request holds it; an unleased lock of a dead process is dropped. */
    private function heldByOther(string $key): bool
    {
        $entry = $this->locks->fetch($key, $found);
        if (!$found || !\is_string($entry)) {
            return false;
        }
        $owner = substr($entry, 1);
        if ($owner === self::token()) {
            return false;
        }
        $pid = (int) $owner;
        if ($entry[0] === 'U' && \function_exists('posix_kill') && $pid !== getmypid() && !posix_kill($pid, 0) && posix_get_last_error() === 3) {
            $this->locks->delete($key); // ESRCH: its process died
            return false;
        }

        return true;
    }

    private function lockOwner(string $key): ?string
    {
        $entry = $this->locks->fetch($key, $found);

        return $found && \is_string($entry) ? substr($entry, 1) : null;
    }

    /** "<pid>:<random>": this request's, made again in a forked child. */
    private static function token(): string
    {
        if (self::$token === null || self::$tokenPid !== getmypid()) {
            if (self::$tokenPid !== null && self::$tokenPid !== getmypid()) {
                self::$held = []; // a forked child holds none of its parent's locks
                self::$byRemember = [];
            }
            self::$tokenPid = getmypid();
            self::$token = getmypid() . ':' . bin2hex(random_bytes(8));
        }

        return self::$token;
    }

    /** The request's unleased locks go when it ends; leased ones last their lease. */
    private static function registerShutdown(): void
    {
        if (self::$shutdownRegistered) {
            return;
        }
        self::$shutdownRegistered = true;
        register_shutdown_function(static function (): void {
            if (self::$tokenPid !== getmypid()) {
                return; // a forked child that took no lock: they are its parent's
            }
            foreach (self::$held as $pool => $keys) {
                foreach ($keys as $key => $leased) {
                    $cache = self::$pools[$pool] ?? null;
                    if (!$leased && $cache !== null && $cache->lockOwner((string) $key) === self::$token) {
                        $cache->locks->delete((string) $key);
                    }
                }
            }
            self::$held = [];
        });
    }

    private static function storage(string $name): Storage
    {
        return ApcuStorage::isUsable() ? new ApcuStorage($name) : new ArrayStorage($name);
    }

    private static function checkPool(string $pool, string $method): void
    {
        if ($pool === '') {
            throw self::valueError($method, 1, 'pool', 'must not be empty');
        }
        if (str_contains($pool, self::DELIMITER)) {
            throw self::valueError($method, 1, 'pool', 'must not contain the user-cache key delimiter 0x1F');
        }
    }

    private function checkKey(string $key, string $method): void
    {
        if ($key === '') {
            throw self::valueError($method, 1, 'key', 'must be a non-empty string');
        }
        if (str_contains($key, self::DELIMITER)) {
            throw self::valueError($method, 1, 'key', 'must not contain the user-cache key delimiter 0x1F');
        }
    }

    private static function checkKeyList(array $keys, string $method): void
    {
        foreach ($keys as $key) {
            if (!\is_int($key) && !(\is_string($key) && self::validKey($key))) {
                throw self::valueError($method, 1, 'keys', 'must contain only non-empty string or int cache keys that do not contain 0x1F');
            }
        }
    }

    private static function validKey(string $key): bool
    {
        return $key !== '' && !str_contains($key, self::DELIMITER);
    }

    private static function checkNotNegative(int $n, string $method, int $arg, string $name): void
    {
        if ($n < 0) {
            throw self::valueError($method, $arg, $name, 'must be greater than or equal to 0');
        }
    }

    /** The value as the polyfill keeps it, refused as the proposal refuses it. */
    private static function encode(mixed $value, string $method): mixed
    {
        if (\is_resource($value) || get_debug_type($value) === 'resource (closed)') {
            throw new \TypeError('Resources cannot be stored in the user cache');
        }
        if ($value instanceof \Closure) {
            throw new \TypeError('Closure objects cannot be stored in the user cache');
        }
        // serialize() writes a resource inside an array as 0: look for one first.
        if (\is_array($value) && self::holdsResource($value)) {
            throw new \TypeError('Resources cannot be stored in the user cache');
        }
        try {
            $encoded = Encoding::encode($value, $method, 2, 'value', '$value');
            // ArrayObject's state, [flags, storage, ...], with an object as its storage.
            if (\is_array($encoded) && preg_match('/:\{i:0;i:-?\d+;i:1;[Or]:/', $encoded[0])) {
                $seen = [];
                $class = self::objectBackedSplArray($value, $seen, 0);
                if ($class !== null) {
                    throw new \TypeError("The state of the $class object cannot be stored in the user cache");
                }
            }

            return $encoded;
        } catch (\TypeError $e) {
            if (str_starts_with($e->getMessage(), 'The state of the ')) {
                throw $e;
            }
            $what = substr($e->getMessage(), (int) strrpos($e->getMessage(), ' is ') + 4);
            throw new \TypeError(match (true) {
                $what === 'a resource' => 'Resources cannot be stored in the user cache',
                $what === 'a Closure' => 'Closure objects cannot be stored in the user cache',
                $what === 'an instance of an anonymous class' => (Encoding::$refusedAnonymousClass ?? 'class@anonymous') . ' objects cannot be stored in the user cache',
                $what === 'a Generator' => 'Generator objects cannot be stored in the user cache',
                str_starts_with($what, 'an instance of ') => substr($what, 15) . ' objects cannot be stored in the user cache',
                default => 'objects with opaque internal state (e.g. Fiber, Generator, PDO) cannot be stored in the user cache',
            }, 0, $e);
        }
    }

    /** @param array<mixed> $array */
    /**
     * The class of an ArrayObject or ArrayIterator in $value whose storage is an object, as the proposal
     * refuses it; looks where serialize() looked without running a hook again (objects with hooks of
     * their own are not looked into).
     *
     * @param array<int, true> $seen
     */
    private static function objectBackedSplArray(mixed $value, array &$seen, int $depth): ?string
    {
        if ($depth > 1024) {
            return null;
        }
        if (\is_array($value)) {
            foreach ($value as $item) {
                $class = self::objectBackedSplArray($item, $seen, $depth + 1);
                if ($class !== null) {
                    return $class;
                }
            }

            return null;
        }
        if (!\is_object($value) || isset($seen[spl_object_id($value)])) {
            return null;
        }
        $seen[spl_object_id($value)] = true;
        if ($value instanceof \ArrayObject || $value instanceof \ArrayIterator) {
            if (!(new \ReflectionMethod($value, '__serialize'))->isInternal()) {
                return null;
            }
            $state = $value->__serialize();

            return \is_object($state[1] ?? null) ? \get_class($value) : self::objectBackedSplArray($state, $seen, $depth + 1);
        }
        if (method_exists($value, '__serialize') || method_exists($value, '__sleep') || $value instanceof \Serializable) {
            return null;
        }

        return self::objectBackedSplArray(get_mangled_object_vars($value), $seen, $depth + 1);
    }

    private static function holdsResource(array $array, int $depth = 0): bool
    {
        foreach ($array as $item) {
            if (\is_resource($item) || get_debug_type($item) === 'resource (closed)'
                || (\is_array($item) && $depth < 1024 && self::holdsResource($item, $depth + 1))) {
                return true;
            }
        }

        return false;
    }

    private static function valueError(string $method, int $arg, string $name, string $message): \ValueError
    {
        return new \ValueError(sprintf('%s::%s(): Argument #%d ($%s) %s', self::class, $method, $arg, $name, $message));
    }
}
