<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * A Redis SUBSCRIBE connection spoken directly in RESP over a PHP stream.
 *
 * Why not phpredis's subscribe(): it blocks inside the extension until a
 * message arrives, and the only way out without one is its read timeout,
 * which ends the subscription: phpredis (5.3, as Debian 12 has it) throws "read error on
 * connection" and drops the connection, and Redis forgets the subscriber.
 * The listener must wake up without messages, every second, to send its
 * heartbeat, notice a hung Redis, renew generations and see SIGTERM; and
 * each re-subscription would lose what is published in between, so the
 * listener would have to clear its host's local tier every second. Here
 * next() waits with a timeout and the subscription stays.
 */
final class RespSubscriber
{
    /** @var resource|null */
    private $socket = null;
    private string $buffer = '';
    private float $lastHeard = 0.0;

    /**
     * @param string $address tcp://host:port, unix:///path/to/redis.sock or tls://host:port
     */
    public function __construct(
        public readonly string $address,
        private readonly ?string $password = null,
        private readonly ?string $username = null,
        private readonly float $timeout = 2.0,
    ) {
    }

    /** Connects (again) and subscribes; returns once Redis has confirmed. */
    public function subscribe(string $channel): void
    {
        $this->close();
        $socket = @stream_socket_client($this->address, $errno, $error, $this->timeout);
        if ($socket === false) {
            throw new SharedTierException("Redis: connect to {$this->address}: $error");
        }
        $this->socket = $socket;
        if ($this->password !== null) {
            $this->send($this->username !== null ? ['AUTH', $this->username, $this->password] : ['AUTH', $this->password]);
            $this->expectReply(fn ($reply) => $reply === 'OK', 'AUTH');
        }
        $this->send(['SUBSCRIBE', $channel]);
        $this->expectReply(fn ($reply) => \is_array($reply) && $reply[0] === 'subscribe' && $reply[1] === $channel, 'SUBSCRIBE');
    }

    /**
     * The next message's payload, or null if none came within $timeout
     * seconds. Throws SharedTierException when the connection fails.
     */
    public function next(float $timeout): ?string
    {
        $deadline = microtime(true) + $timeout;
        while (true) {
            $reply = $this->parse();
            if ($reply === null) {
                $left = $deadline - microtime(true);
                if ($left <= 0 || !$this->receive($left)) {
                    return null;
                }
                continue;
            }
            // ["message", channel, payload]; the rest ("pong"...) only shows the connection is alive.
            if (\is_array($reply) && ($reply[0] ?? null) === 'message' && \is_string($reply[2] ?? null)) {
                return $reply[2];
            }
        }
    }

    /** Asks for a sign of life (allowed while subscribed); the answer updates idleFor(). */
    public function ping(): void
    {
        $this->send(['PING']);
    }

    /** Seconds since anything was received. */
    public function idleFor(): float
    {
        return microtime(true) - $this->lastHeard;
    }

    public function close(): void
    {
        if ($this->socket !== null) {
            @fclose($this->socket);
            $this->socket = null;
        }
        $this->buffer = '';
    }

    public function __destruct()
    {
        $this->close();
    }

    /** @param list<string> $arguments */
    private function send(array $arguments): void
    {
        if ($this->socket === null) {
            throw new SharedTierException('Redis: not connected');
        }
        $command = '*' . \count($arguments) . "\r\n";
        foreach ($arguments as $argument) {
            $command .= '$' . \strlen($argument) . "\r\n" . $argument . "\r\n";
        }
        for ($written = 0; $written < \strlen($command); $written += $n) {
            $n = @fwrite($this->socket, substr($command, $written));
            if ($n === false || $n === 0) {
                throw new SharedTierException("Redis: write to {$this->address} failed");
            }
        }
    }

    private function expectReply(\Closure $isExpected, string $command): void
    {
        $deadline = microtime(true) + $this->timeout;
        while (($reply = $this->parse()) === null) {
            $left = $deadline - microtime(true);
            if ($left <= 0 || !$this->receive($left)) {
                throw new SharedTierException("Redis: no answer to $command from {$this->address}");
            }
        }
        if (!$isExpected($reply)) {
            throw new SharedTierException("Redis: unexpected answer to $command: " . json_encode($reply, JSON_INVALID_UTF8_SUBSTITUTE));
        }
    }

    /** Waits up to $timeout for bytes; false if none came. */
    private function receive(float $timeout): bool
    {
        if ($this->socket === null) {
            throw new SharedTierException('Redis: not connected');
        }
        $read = [$this->socket];
        $write = $except = null;
        $seconds = (int) $timeout;
        $ready = @stream_select($read, $write, $except, $seconds, (int) (($timeout - $seconds) * 1e6));
        if ($ready === false) {
            // Interrupted by a signal: the caller's loop decides whether to go on.
            return false;
        }
        if ($ready === 0) {
            return false;
        }
        $bytes = @fread($this->socket, 65536);
        if ($bytes === false || ($bytes === '' && feof($this->socket))) {
            $this->close();
            throw new SharedTierException("Redis: connection to {$this->address} closed");
        }
        $this->buffer .= $bytes;
        $this->lastHeard = microtime(true);

        return true;
    }

    /** The first whole reply in the buffer (taken out of it), or null if it is not all there yet. */
    private function parse(): mixed
    {
        $offset = 0;
        $incomplete = new \stdClass();
        $reply = $this->value($offset, $incomplete);
        if ($reply === $incomplete) {
            return null;
        }
        $this->buffer = substr($this->buffer, $offset);

        return $reply;
    }

    /** One RESP2 value at $offset, moving $offset past it; $incomplete if the buffer ends first. */
    private function value(int &$offset, object $incomplete): mixed
    {
        $end = strpos($this->buffer, "\r\n", $offset);
        if ($end === false) {
            return $incomplete;
        }
        $type = $this->buffer[$offset];
        $line = substr($this->buffer, $offset + 1, $end - $offset - 1);
        $next = $end + 2;
        switch ($type) {
            case '+':
                $offset = $next;

                return $line;
            case '-':
                throw new SharedTierException("Redis: $line");
            case ':':
                $offset = $next;

                return (int) $line;
            case '$':
                $length = (int) $line;
                if ($length < 0) {
                    $offset = $next;

                    return null;
                }
                if (\strlen($this->buffer) < $next + $length + 2) {
                    return $incomplete;
                }
                $offset = $next + $length + 2;

                return substr($this->buffer, $next, $length);
            case '*':
                $count = (int) $line;
                $items = [];
                for ($i = 0; $i < $count; $i++) {
                    $item = $this->value($next, $incomplete);
                    if ($item === $incomplete) {
                        return $incomplete;
                    }
                    $items[] = $item;
                }
                $offset = $next;

                return $items;
            default:
                throw new SharedTierException('Redis: unexpected reply type ' . json_encode($type));
        }
    }
}
