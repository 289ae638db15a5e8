<?php

declare(strict_types=1);

namespace Resident\Laravel;

use Illuminate\Cache\TaggableStore;
use Illuminate\Contracts\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use Psr\Log\LoggerInterface;
use Resident\Cache;
use Resident\Support\StorageKey;
use Resident\Support\Ttl;
use Resident\Support\Writes;

/**
 * A Laravel cache store over a Resident pool, with atomic locks and tags
 * (TaggableStore's tag sets work over any store).
 *
 * Laravel cannot tell a stored null from a miss (get() returns null for
 * both); that is Laravel's contract, not a limit of the pool.
 */
final class ResidentStore extends TaggableStore implements LockProvider
{
    /** Rounds of increment() and conversion before increment() gives up. */
    private const COUNT_ATTEMPTS = 3;

    /** Milliseconds a conversion waits for another process's conversion of the same key. */
    private const TURN_WAITS = 1000;

    private readonly Cache $pool;

    private readonly string $prefix;

    /**
     * @param Cache|string $pool   a pool, or the name of one
     * @param string       $prefix put before every key (and lock name), followed by ':'
     * @param LoggerInterface|null $logger hears why a write failed (a full pool), else PHP's warning does
     */
    public function __construct(Cache|string $pool = 'laravel', string $prefix = '', private readonly ?LoggerInterface $logger = null)
    {
        $this->pool = $pool instanceof Cache ? $pool : Cache::pool($pool);
        $this->prefix = $prefix === '' ? '' : $prefix . ':';
    }

    public function pool(): Cache
    {
        return $this->pool;
    }

    public function get($key): mixed
    {
        return $this->pool->fetch($this->id($key));
    }

    public function many(array $keys): array
    {
        $ids = [];
        foreach ($keys as $key) {
            $ids[$key] = $this->id($key);
        }
        $hits = $ids === [] ? [] : $this->pool->fetchMultiple(array_values($ids));
        $values = [];
        foreach ($ids as $key => $id) {
            $values[$key] = $hits[$id] ?? null;
        }

        return $values;
    }

    public function put($key, $value, $seconds): bool
    {
        return Writes::store($this->pool, $this->id($key), $value, self::ttl($seconds), $this->logger);
    }

    public function putMany(array $values, $seconds): bool
    {
        $byId = [];
        foreach ($values as $key => $value) {
            $byId[$this->id($key)] = $value;
        }

        return $byId === [] || Writes::storeMany($this->pool, $byId, self::ttl($seconds), $this->logger) === [];
    }

    /** Stores only if the key is absent: Laravel's Repository::add() uses it when the store has it. */
    public function add($key, $value, $seconds): bool
    {
        return Writes::add($this->pool, $this->id($key), $value, self::ttl($seconds), $this->logger);
    }

    /**
     * Adds $value atomically; a missing key starts at 0 and keeps no expiry.
     * A key holding an integer as a string ("5", as Redis and the array
     * store keep numbers) counts from that number, as in every Laravel store.
     *
     * @return int|false false when the key holds anything else
     */
    public function increment($key, $value = 1): int|false
    {
        return $this->count($this->id($key), (int) $value);
    }

    /** @return int|false false when the key holds something other than an integer */
    public function decrement($key, $value = 1): int|false
    {
        return $this->count($this->id($key), -(int) $value);
    }

    public function forever($key, $value): bool
    {
        return $this->put($key, $value, 0);
    }

    public function forget($key): bool
    {
        return $this->pool->delete($this->id($key));
    }

    /** Empties the pool, or, with a prefix, the keys under that prefix. */
    public function flush(): bool
    {
        if ($this->prefix === '') {
            return $this->pool->clear();
        }
        $keys = iterator_to_array($this->pool->keys(StorageKey::encode($this->prefix)), false);
        foreach (array_chunk($keys, 1000) as $batch) {
            $this->pool->deleteMultiple($batch);
        }

        return true;
    }

    public function getPrefix(): string
    {
        return $this->prefix;
    }

    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new ResidentLock($this->pool, $this->id($name), (int) $seconds, $owner, $this->logger);
    }

    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }

    private function count(string $id, int $step): int|false
    {
        for ($attempt = 0; $attempt < self::COUNT_ATTEMPTS; $attempt++) {
            try {
                return $this->pool->increment($id, $step);
            } catch (\TypeError) {
                if (!$this->numberFromString($id)) {
                    return false;
                }
            }
        }

        return false;
    }

    /**
     * Turns "5" under $id into 5, so that increment() counts from it. One
     * process at a time, and only if the entry still holds such a string
     * once it has the turn: two processes that both read "5" do not both
     * write 5 (which would lose the first one's increment). The entry keeps
     * no expiry it had: the pool cannot tell how much of it is left.
     *
     * @return bool false when the entry holds something increment() cannot count from
     */
    private function numberFromString(string $id): bool
    {
        $turn = StorageKey::encode("\x01count:$id");
        for ($wait = 0; !Writes::add($this->pool, $turn, true, 5, $this->logger); $wait++) {
            if ($wait === self::TURN_WAITS) {
                return false;
            }
            usleep(1000);
        }
        try {
            $current = $this->pool->fetch($id);
            if (\is_string($current) && preg_match('/^-?(0|[1-9][0-9]{0,17})$/', $current) === 1) {
                return Writes::store($this->pool, $id, (int) $current, 0, $this->logger);
            }

            // Taken meanwhile by another process's conversion (now an int), or not a number.
            return \is_int($current) || $current === null;
        } finally {
            $this->pool->delete($turn);
        }
    }

    private function id(mixed $key): string
    {
        return StorageKey::encode($this->prefix . $key);
    }

    /** Laravel's stores read 0 or less as "forever" (Repository itself never passes it). */
    private static function ttl(mixed $seconds): int
    {
        $seconds = (int) $seconds;

        return $seconds > 0 ? Ttl::clamp($seconds) : 0;
    }
}
