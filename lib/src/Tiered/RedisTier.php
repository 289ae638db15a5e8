<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * The shared tier on Redis through phpredis: one server (\Redis), several
 * behind consistent hashing (\RedisArray), or a cluster (\RedisCluster);
 * or a function that makes one of those, connected.
 *
 * Layout, under a prefix (default "resident:"):
 *   {prefix}{namespace}:{generation}:{key}   a value (Payload)
 *   {prefix}generations                      hash: namespace => generation
 *   {prefix}invalidations                    the channel listeners subscribe to
 * The generations live in one hash so that a listener resyncs all of them
 * with one HGETALL.
 *
 * Connections: once a command has failed, phpredis does not connect again
 * by itself ("Redis server went away" from then on, for \Redis and
 * \RedisArray), and after a failure it no longer even knows where it was
 * connected. So this class notes each server's address, timeouts, password
 * and database while the client is connected, and after a failure
 * reconnects at the next command (the circuit breaker in Tiered spaces
 * those attempts out). A client made by a function is made afresh instead,
 * which also covers a client that never connected, and clusters.
 *
 * Deadlines (CallDeadline): before each command, the client's read timeout
 * is set to what is left of the call's deadline, and a reconnect waits no
 * longer either; after the call the client's own read timeout is restored.
 */
final class RedisTier implements SharedTier, CallDeadline
{
    /** Seconds a reconnect may wait when no deadline is set. */
    private const CONNECT_SECONDS = 2.0;

    private \Redis|\RedisArray|\RedisCluster|null $redis;

    /** @var (\Closure(): (\Redis|\RedisArray|\RedisCluster))|null */
    private readonly ?\Closure $connect;

    /**
     * Where each server of the client is, noted while connected: "" for a
     * \Redis, "host:port" for each server of a \RedisArray.
     *
     * @var array<string, array{host: string, port: int, timeout: float, readTimeout: float, persistentId: ?string, auth: mixed, db: int}>
     */
    private array $servers = [];

    /** How many servers the client has (0 for a cluster, which finds its own again). */
    private int $serverCount = 0;

    /** A command failed: the next one reconnects first. */
    private bool $broken = false;

    private ?float $deadline = null;

    /**
     * @param \Redis|\RedisArray|\RedisCluster|\Closure(): (\Redis|\RedisArray|\RedisCluster) $redis
     *        a client, or a function that makes one (connected), called at the first command and after failures
     */
    public function __construct(
        \Redis|\RedisArray|\RedisCluster|\Closure $redis,
        public readonly string $prefix = 'resident:',
    ) {
        $this->connect = $redis instanceof \Closure ? $redis : null;
        $this->redis = $redis instanceof \Closure ? null : $redis;
        if ($this->redis !== null) {
            self::checkSerializer($this->redis);
            $this->noteServers($this->redis);
        }
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
        $redis = $this->client();

        return $redis instanceof \RedisArray ? $redis->_target($this->channel()) : null;
    }

    public function callBy(?float $deadline): void
    {
        $this->deadline = $deadline;
        if ($deadline === null && $this->redis !== null && !$this->broken) {
            $this->restoreReadTimeouts($this->redis);
        }
    }

    public function get(string $key): ?string
    {
        $value = $this->call(fn ($redis) => $redis->get($key));

        return \is_string($value) ? $value : null;
    }

    public function set(string $key, string $payload, int $ttl): void
    {
        $ok = $this->call(fn ($redis) => $ttl > 0 ? $redis->set($key, $payload, ['ex' => $ttl]) : $redis->set($key, $payload));
        if ($ok !== true) {
            throw new SharedTierException("Redis refused SET $key");
        }
    }

    public function delete(string $key): void
    {
        $this->call(fn ($redis) => $redis->del($key));
    }

    public function generation(string $namespace): int
    {
        $generation = $this->call(fn ($redis) => $redis->hGet($this->generationsKey(), $namespace));
        if ($generation === false) {
            // First use (or lost): start it, unless another host just did.
            $this->call(fn ($redis) => $redis->hSetNx($this->generationsKey(), $namespace, (string) Generation::initial()));
            $generation = $this->call(fn ($redis) => $redis->hGet($this->generationsKey(), $namespace));
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

        return (int) $this->call(fn ($redis) => $redis->hIncrBy($this->generationsKey(), $namespace, 1));
    }

    public function generations(): array
    {
        $all = $this->call(fn ($redis) => $redis->hGetAll($this->generationsKey()));
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
        $this->call(function ($redis) use ($message) {
            $node = $redis instanceof \RedisArray ? $redis->_instance($redis->_target($this->channel())) : $redis;

            return $node->publish($this->channel(), $message);
        });
    }

    /** Asks for a sign of life: what the listener's heartbeat uses on its command connection. */
    public function ping(): void
    {
        $this->call(function ($redis) {
            if ($redis instanceof \RedisCluster) {
                foreach ($redis->_masters() as $master) {
                    $redis->ping($master);
                }

                return true;
            }

            return $redis->ping();
        });
    }

    private function generationsKey(): string
    {
        return $this->prefix . 'generations';
    }

    /**
     * @template T
     * @param \Closure(\Redis|\RedisArray|\RedisCluster): T $command
     * @return T
     */
    private function call(\Closure $command): mixed
    {
        $redis = $this->client();
        if ($this->deadline !== null) {
            $this->setReadTimeout($redis, $this->left());
        }
        try {
            $result = $command($redis);
        } catch (\RedisException|\RedisClusterException $e) {
            $this->broken = true;

            throw new SharedTierException('Redis: ' . $e->getMessage(), 0, $e);
        }
        if (\count($this->servers) < $this->serverCount) {
            // A client that connects lazily (a RedisArray) may be connected to more servers now.
            $this->noteServers($redis);
        }

        return $result;
    }

    /** Seconds left before the deadline; throws when none are. */
    private function left(): float
    {
        $left = $this->deadline - microtime(true);
        if ($left <= 0) {
            throw new SharedTierException(sprintf('Redis: the call ran past its deadline by %.1f ms', -$left * 1000));
        }

        return $left;
    }

    /** The client, connected again first if a command failed. */
    private function client(): \Redis|\RedisArray|\RedisCluster
    {
        if ($this->redis !== null && !$this->broken) {
            return $this->redis;
        }
        $timeout = $this->deadline === null ? self::CONNECT_SECONDS : $this->left();
        try {
            if ($this->connect !== null) {
                $this->redis = null;
                $redis = ($this->connect)();
                self::checkSerializer($redis);
                $this->redis = $redis;
                $this->noteServers($redis);
            } elseif ($this->redis instanceof \Redis) {
                $this->reconnect($this->redis, '', $timeout);
            } elseif ($this->redis instanceof \RedisArray) {
                foreach ($this->redis->_hosts() as $host) {
                    $node = $this->redis->_instance($host);
                    if (!$node->isConnected()) {
                        $this->reconnect($node, $host, $timeout);
                    }
                }
            }
            // A RedisCluster finds its nodes again itself.
        } catch (\RedisException|\RedisClusterException $e) {
            throw new SharedTierException('Redis: reconnecting: ' . $e->getMessage(), 0, $e);
        }
        if ($this->redis === null) {
            throw new SharedTierException('Redis: the connecting function returned no client');
        }
        $this->broken = false;

        return $this->redis;
    }

    /** Connects $node again to the server noted under $name, waiting at most $timeout seconds. */
    private function reconnect(\Redis $node, string $name, float $timeout): void
    {
        $server = $this->servers[$name] ?? null;
        if ($server === null) {
            throw new SharedTierException('Redis: the client lost its connection and never said where it was connected: '
                . 'give Tiered a function that connects (new Tiered($pool, fn () => ...)) to reconnect it');
        }
        $node->close();
        $connectTimeout = min($timeout, $server['timeout'] > 0 ? $server['timeout'] : $timeout);
        $ok = $server['persistentId'] !== null
            ? $node->pconnect($server['host'], $server['port'], $connectTimeout, $server['persistentId'], 0, $server['readTimeout'])
            : $node->connect($server['host'], $server['port'], $connectTimeout, null, 0, $server['readTimeout']);
        if (!$ok) {
            throw new SharedTierException("Redis: reconnecting to {$server['host']}:{$server['port']} failed");
        }
        if ($server['auth'] !== null) {
            $node->auth($server['auth']);
        }
        if ($server['db'] !== 0) {
            $node->select($server['db']);
        }
    }

    /** Notes where the client's servers are, while it still knows. */
    private function noteServers(\Redis|\RedisArray|\RedisCluster $redis): void
    {
        $nodes = match (true) {
            $redis instanceof \Redis => ['' => $redis],
            $redis instanceof \RedisArray => array_combine($redis->_hosts(), array_map($redis->_instance(...), $redis->_hosts())),
            default => [],
        };
        $this->serverCount = \count($nodes);
        foreach ($nodes as $name => $node) {
            if (isset($this->servers[$name]) || !$node->isConnected()) {
                continue;
            }
            $this->servers[$name] = [
                'host' => (string) $node->getHost(),
                'port' => (int) $node->getPort(),
                'timeout' => (float) $node->getTimeout(),
                'readTimeout' => (float) $node->getReadTimeout(),
                'persistentId' => \is_string($id = $node->getPersistentID()) && $id !== '' ? $id : null,
                'auth' => $node->getAuth() ?: null,
                'db' => (int) $node->getDBNum(),
            ];
        }
    }

    private function setReadTimeout(\Redis|\RedisArray|\RedisCluster $redis, float $seconds): void
    {
        try {
            // RedisArray takes option values as strings only.
            $redis->setOption(\Redis::OPT_READ_TIMEOUT, $redis instanceof \RedisArray ? (string) $seconds : $seconds);
        } catch (\RedisException|\RedisClusterException) {
            // A cluster keeps the read timeout it was made with.
        }
    }

    private function restoreReadTimeouts(\Redis|\RedisArray|\RedisCluster $redis): void
    {
        $nodes = match (true) {
            $redis instanceof \Redis => ['' => $redis],
            $redis instanceof \RedisArray => array_map($redis->_instance(...), array_combine(array_keys($this->servers), array_keys($this->servers))),
            default => [],
        };
        foreach ($nodes as $name => $node) {
            if (isset($this->servers[$name])) {
                $this->setReadTimeout($node, self::ownReadTimeout($this->servers[$name]['readTimeout']));
            }
        }
    }

    /**
     * The read timeout a client made with $readTimeout has: 0 is PHP's
     * default_socket_timeout there, while 0 set as an option times out at once.
     */
    private static function ownReadTimeout(float $readTimeout): float
    {
        return $readTimeout > 0 ? $readTimeout : (float) ini_get('default_socket_timeout');
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
