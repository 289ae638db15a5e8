<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered\Servers;

/** memcached on 127.0.0.1 (TCP only), 16 MB. */
final class MemcachedServer extends Server
{
    public const NAME = 'memcached';

    /** On SIGTERM memcached waits a second for its clients; it keeps nothing worth a clean exit. */
    protected const STOP_SIGNAL = 9;

    public function client(): \Memcached
    {
        $memcached = new \Memcached();
        $memcached->addServer('127.0.0.1', $this->port);
        $memcached->setOption(\Memcached::OPT_CONNECT_TIMEOUT, 500);
        $memcached->setOption(\Memcached::OPT_POLL_TIMEOUT, 500);

        return $memcached;
    }

    protected function command(): array
    {
        $command = ['/usr/bin/memcached', '-l', '127.0.0.1', '-p', (string) $this->port, '-U', '0', '-m', '16'];
        // memcached refuses to run as root unless told which user to be.
        if (trim((string) shell_exec('id -u')) === '0') {
            array_push($command, '-u', 'root');
        }

        return $command;
    }

    protected function answers(): bool
    {
        $connection = @stream_socket_client("tcp://127.0.0.1:{$this->port}", $errno, $error, 0.2);
        if ($connection === false) {
            return false;
        }
        fwrite($connection, "version\r\n");
        stream_set_timeout($connection, 1);
        $answer = (string) fgets($connection);
        fclose($connection);

        return str_starts_with($answer, 'VERSION');
    }
}
