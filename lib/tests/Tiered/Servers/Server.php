<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered\Servers;

/**
 * A server process the tests start on 127.0.0.1 and a free port, as a
 * child of the test process (no daemon left behind: stop() and the
 * destructor end it).
 */
abstract class Server
{
    public readonly string $dir;
    /** Not readonly: a failed start on a taken port picks another. */
    public int $port;

    /** @var resource|null */
    private $process = null;

    public function __construct()
    {
        $this->dir = sys_get_temp_dir() . '/resident-' . static::NAME . '-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($this->dir);
        // A port that was free a moment ago may be taken by another test run: try a few.
        for ($attempt = 0; ; $attempt++) {
            $this->port = self::freePort();
            try {
                $this->start();

                return;
            } catch (\RuntimeException $e) {
                if ($attempt === 4) {
                    throw $e;
                }
            }
        }
    }

    /** How stop() asks the server to end. */
    protected const STOP_SIGNAL = 15;

    /** The server's command line. @return list<string> */
    abstract protected function command(): array;

    /** Whether the server answers yet. */
    abstract protected function answers(): bool;

    public function running(): bool
    {
        return $this->process !== null && proc_get_status($this->process)['running'];
    }

    /** Starts the server (again, after stop(false): same port, same directory). */
    public function start(): void
    {
        $binary = $this->command()[0];
        if (!is_executable($binary)) {
            throw new \RuntimeException("$binary is not installed: run scripts/install-deps.sh");
        }
        $this->process = proc_open($this->command(), [0 => ['file', '/dev/null', 'r'], 1 => ['file', "{$this->dir}/log", 'a'],
            2 => ['file', "{$this->dir}/log", 'a']], $pipes, $this->dir);
        for ($i = 0; $i < 200; $i++) {
            if (!$this->running()) {
                break;
            }
            if ($this->answers()) {
                return;
            }
            usleep(10000);
        }
        $this->stop(false);
        throw new \RuntimeException(static::NAME . " did not start on port {$this->port}:\n" . @file_get_contents("{$this->dir}/log"));
    }

    /** Ends the server at once (SIGKILL), as a crash would; start() brings it back on the same port. */
    public function kill(): void
    {
        if ($this->process !== null) {
            proc_terminate($this->process, 9);
            proc_close($this->process);
            $this->process = null;
        }
    }

    /** Stops the server's process (SIGSTOP): connections stay open, and nothing answers. */
    public function pause(): void
    {
        if ($this->process !== null) {
            proc_terminate($this->process, 19);
        }
    }

    /** Lets a paused server go on (SIGCONT). */
    public function resume(): void
    {
        if ($this->process !== null) {
            proc_terminate($this->process, 18);
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL); with $cleanUp, removes its directory too. */
    public function stop(bool $cleanUp = true): void
    {
        if ($this->process !== null) {
            // A paused server would not see SIGTERM.
            proc_terminate($this->process, 18);
            proc_terminate($this->process, static::STOP_SIGNAL);
            for ($i = 0; $i < 200 && $this->running(); $i++) {
                usleep(10000);
            }
            if ($this->running()) {
                proc_terminate($this->process, 9);
            }
            proc_close($this->process);
            $this->process = null;
        }
        if ($cleanUp && is_dir($this->dir)) {
            array_map('unlink', glob("{$this->dir}/*") ?: []);
            @rmdir($this->dir);
        }
    }

    public function __destruct()
    {
        $this->stop();
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        if ($socket === false) {
            throw new \RuntimeException("no free port: $error");
        }
        $port = (int) substr((string) strrchr(stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket);

        return $port;
    }
}
