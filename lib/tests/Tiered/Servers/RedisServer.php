<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered\Servers;

/** redis-server without persistence, on 127.0.0.1 and on a unix socket in its directory. */
final class RedisServer extends Server
{
    public const NAME = 'redis';

    /** @param list<string> $options more redis-server options (e.g. for a cluster node) */
    public function __construct(private readonly array $options = [])
    {
        parent::__construct();
    }

    public function socket(): string
    {
        return "{$this->dir}/redis.sock";
    }

    public function client(): \Redis
    {
        $redis = new \Redis();
        $redis->connect('127.0.0.1', $this->port, 2.0);

        return $redis;
    }

    protected function command(): array
    {
        return array_merge(['/usr/bin/redis-server', '--bind', '127.0.0.1', '--port', (string) $this->port,
            '--unixsocket', $this->socket(), '--unixsocketperm', '700', '--save', '', '--appendonly', 'no',
            '--dir', $this->dir, '--logfile', ''], $this->options);
    }

    protected function answers(): bool
    {
        $connection = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $error, 0.2);
        if ($connection === false) {
            return false;
        }
        fwrite($connection, "PING\r\n");
        stream_set_timeout($connection, 1);
        $answer = fgets($connection);
        fclose($connection);

        return $answer === "+PONG\r\n";
    }
}
