<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * The shared tier on Redis through phpredis: one server (\Redis), several
 * behind consistent hashing (\RedisArray), or a cluster (\RedisCluster).
 *
 * Layout, under a prefix (default "resident:"):
 *   {prefix}{namespace}:{generation}:{key}   a value (Payload)
 *   {prefix}generations                      hash: namespace => generation
 *   {prefix}invalidations                    the channel listeners subscribe to
 * The generations live in one hash so that a listener resyncs all of them
 * with one HGETALL.
 */
final class RedisTier implements SharedTier
{
    public function __construct(
        private readonly \Redis|\RedisArray|\RedisCluster $redis,
        public readonly string $prefix = 'resident:',
    ) {
        self::checkSerializer($redis);
    }

    public function channel(): string
    {
        return $this->prefix . 'invalidations';
    }

    public function key(string $namespace, int $generation, string $key): string
    {
        return $this->prefix . $namespace . ':' . $generation . ':' . $key;
    }

    /**
     * The node that carries the channel. Outside a cluster, a message
     * published on one server reaches only that server's subscribers, so
     * with a RedisArray publishers and listeners must agree on one node: the
     * one the channel's name hashes to. Returns "host:port", or null when
     * there is no such choice to make (one server, or a cluster, which
     * forwards messages to every node).
     */
    public function channelNode(): ?string
    {
        return $this->redis instanceof \RedisArray ? $this->redis->_target($this->channel()) : null;
    }

    public function get(string $key): ?string
    {
        $value = $this->call(fn () => $this->redis->get($key));

        return \is_string($value) ? $value : null;
    }

    public function set(string $key, string $payload, int $ttl): void
    {
        $ok = $this->call(fn () => $ttl > 0 ? $this->redis->set($key, $payload, ['ex' => $ttl]) : $this->redis->set($key, $payload));
        if ($ok !== true) {
            throw new SharedTierException("Redis refused SET $key");
        }
    }

    public function delete(string $key): void
    {
        $this->call(fn () => $this->redis->del($key));
    }

    public function generation(string $namespace): int
    {
        $generation = $this->call(fn () => $this->redis->hGet($this->generationsKey(), $namespace));
        if ($generation === false) {
            // First use (or lost): start it, unless another host just did.
            $generation = $this->call(function () use ($namespace) {
                $this->redis->hSetNx($this->generationsKey(), $namespace, (string) Generation::initial());

                return $this->redis->hGet($this->generationsKey(), $namespace);
            });
        }
        if (!is_numeric($generation)) {
            throw new SharedTierException("Redis has no generation for namespace $namespace");
        }

        return (int) $generation;
    }

    public function bump(string $namespace): int
    {
        // HINCRBY alone would start a missing generation at 1, behind what hosts remember.
        $this->generation($namespace);

        return (int) $this->call(fn () => $this->redis->hIncrBy($this->generationsKey(), $namespace, 1));
    }

    public function generations(): array
    {
        $all = $this->call(fn () => $this->redis->hGetAll($this->generationsKey()));
        if (!\is_array($all)) {
            throw new SharedTierException('Redis HGETALL of the generations failed');
        }

        return array_map('intval', $all);
    }

    public function pushesInvalidations(): bool
    {
        return true;
    }

    public function publish(string $message): void
    {
        $this->call(function () use ($message) {
            $node = $this->redis instanceof \RedisArray ? $this->redis->_instance($this->channelNode()) : $this->redis;

            return $node->publish($this->channel(), $message);
        });
    }

    private function generationsKey(): string
    {
        return $this->prefix . 'generations';
    }

    /**
     * @template T
     * @param \Closure(): T $command
     * @return T
     */
    private function call(\Closure $command): mixed
    {
        try {
            return $command();
        } catch (\RedisException|\RedisClusterException $e) {
            throw new SharedTierException('Redis: ' . $e->getMessage(), 0, $e);
        }
    }

    /**
     * Payloads are serialized already, and the generations must stay plain
     * integers for HINCRBY: a client that serializes values itself would
     * break both.
     */
    private static function checkSerializer(\Redis|\RedisArray|\RedisCluster $redis): void
    {
        try {
            $option = $redis->getOption(\Redis::OPT_SERIALIZER);
        } catch (\RedisException|\RedisClusterException) {
            // A client whose connection failed cannot tell: Tiered must still
            // be built (its reads miss, its writes fail) while Redis is down.
            return;
        }
        // A RedisArray answers for each of its servers.
        foreach (\is_array($option) ? $option : [$option] as $serializer) {
            if ((int) $serializer !== \Redis::SERIALIZER_NONE) {
                throw new \InvalidArgumentException('Resident\Tiered needs a Redis client without OPT_SERIALIZER: it serializes values itself');
            }
        }
    }
}
