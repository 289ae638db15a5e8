<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Tiered\Servers\RedisServer;

/**
 * A real redis-server under four long-lived processes (Workers/outage.php),
 * each calling Tiered every few milliseconds with its own client: Redis is
 * killed (SIGKILL) and restarted, then hung (SIGSTOP) for 6 s and let go.
 *
 * - Every process writes through again within 2 s of the restart.
 * - No call is asleep longer than the deadline (100 ms, Tiered's default)
 *   plus TOLERANCE, while Redis is killed, hung, or well.
 * - Throughout the hang every read is served from the process's local tier.
 */
final class OutageTest extends TestCase
{
    private const WORKERS = 4;

    /** Tiered's default deadline, which the workers keep. */
    private const DEADLINE = 0.1;

    /**
     * Seconds a call may be asleep beyond its deadline. Time asleep is
     * wall time less time on a CPU and time waiting for one (BlockedTime),
     * so the machine's load does not add to it; what it holds besides the
     * waits for Redis, each bounded by what is left of the deadline, is
     * page faults and lock waits of microseconds. A call without a
     * deadline would be asleep for the clients' 5 s timeout.
     */
    private const TOLERANCE = 0.05;

    /**
     * Seconds from Redis answering again to each process's first write
     * through it, not counting the time that process waited for a CPU (see
     * recovery()). By design at most the breaker's longest cool-down (1 s)
     * plus one deadline; a process whose client never reconnects never
     * writes through.
     */
    private const RECOVERY = 2.0;

    private RedisServer $server;

    /** @var list<array{0: resource, 1: string}> [process, records file] */
    private array $workers = [];

    private string $dir;

    protected function setUp(): void
    {
        if (!is_readable('/proc/thread-self/schedstat')) {
            self::markTestSkipped('needs /proc/thread-self/schedstat (Linux) to tell time asleep from time waiting for a CPU');
        }
        $this->server = new RedisServer();
        $this->dir = $this->server->dir;
    }

    protected function tearDown(): void
    {
        touch("{$this->dir}/stop");
        foreach ($this->workers as [$process]) {
            for ($i = 0; $i < 500 && proc_get_status($process)['running']; $i++) {
                usleep(10_000);
            }
            proc_terminate($process, 9);
            proc_close($process);
        }
        $this->server->stop();
    }

    public function testFourProcessesRideOutACrashAndAHang(): void
    {
        $php = getenv('RESIDENT_TEST_PHP') ?: escapeshellarg(PHP_BINARY) . ' -n';
        for ($id = 0; $id < self::WORKERS; $id++) {
            $records = "{$this->dir}/worker-$id";
            $command = $php . ' ' . implode(' ', array_map('escapeshellarg',
                [__DIR__ . '/Workers/outage.php', (string) $id, (string) $this->server->port, $records, "{$this->dir}/stop"]));
            $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "{$this->dir}/worker-$id.out", 'w'],
                2 => ['file', "{$this->dir}/worker-$id.out", 'w']], $pipes);
            self::assertIsResource($process);
            $this->workers[] = [$process, $records];
        }
        foreach ($this->workers as $id => [, $records]) {
            for ($i = 0; $i < 1000 && !str_starts_with((string) @file_get_contents($records), "ready\n"); $i++) {
                usleep(10_000);
            }
            self::assertStringStartsWith("ready\n", (string) @file_get_contents($records), "worker $id did not start: "
                . @file_get_contents("{$this->dir}/worker-$id.out"));
        }

        usleep(1_000_000);
        $this->server->kill();
        usleep(1_500_000);
        $this->server->start();
        $restarted = microtime(true);
        usleep(3_000_000);
        $this->server->pause();
        $paused = microtime(true);
        usleep(6_000_000);
        $resumed = microtime(true);
        $this->server->resume();
        usleep(1_000_000);
        touch("{$this->dir}/stop");
        foreach ($this->workers as $id => [$process]) {
            for ($i = 0; $i < 1000 && proc_get_status($process)['running']; $i++) {
                usleep(10_000);
            }
            self::assertFalse(proc_get_status($process)['running'], "worker $id did not stop");
        }

        foreach ($this->workers as $id => [, $records]) {
            $calls = self::calls($records);
            $what = "worker $id";
            self::assertGreaterThan(100, \count($calls), "$what: " . @file_get_contents("{$this->dir}/worker-$id.out"));

            foreach ($calls as $call) {
                self::assertLessThanOrEqual(self::DEADLINE + self::TOLERANCE, $call['asleep'],
                    sprintf('%s: a %s at %+.3f s from the restart was asleep %.3f s', $what, $call['op'], $call['t0'] - $restarted, $call['asleep']));
            }

            self::assertLessThanOrEqual(self::RECOVERY, self::recovery($calls, $restarted), "$what: wrote through again too late");

            $duringHang = array_filter($calls, static fn (array $c): bool => $c['t0'] >= $paused && $c['t1'] <= $resumed);
            $reads = array_filter($duringHang, static fn (array $c): bool => $c['op'] === 'get');
            self::assertGreaterThan(10, \count($reads), "$what: went on reading while Redis hung");
            foreach ($reads as $read) {
                self::assertSame(1, $read['ok'], sprintf('%s: a read %.3f s into the hang got no value', $what, $read['t0'] - $paused));
                self::assertContains($read['served'], ['local_hits', 'stale_hits'], sprintf('%s: a read %.3f s into the hang was not served locally',
                    $what, $read['t0'] - $paused));
            }
            self::assertSame([], array_filter($duringHang, static fn (array $c): bool => $c['op'] === 'set' && $c['ok'] === 1),
                "$what: a write went through a hung Redis");
        }
    }

    /**
     * Seconds from $restarted to the process's first write through Redis,
     * less the time the process spent waiting for a CPU from its last call
     * before $restarted until then: what the process itself took.
     *
     * @param list<array{op: string, t0: float, t1: float, queue0: float, queue1: float, ok: int}> $calls
     */
    private static function recovery(array $calls, float $restarted): float
    {
        $queueAtRestart = null;
        foreach ($calls as $call) {
            if ($call['t1'] <= $restarted) {
                $queueAtRestart = $call['queue1'];
            } elseif ($call['op'] === 'set' && $call['ok'] === 1) {
                return $call['t1'] - $restarted - ($call['queue1'] - ($queueAtRestart ?? $call['queue0']));
            }
        }

        return \INF;
    }

    /** @return list<array{op: string, t0: float, t1: float, asleep: float, queue0: float, queue1: float, ok: int, served: string}> */
    private static function calls(string $records): array
    {
        $calls = [];
        foreach (\array_slice(file($records, FILE_IGNORE_NEW_LINES), 1) as $line) {
            $f = explode(' ', $line);
            if (\count($f) !== 9) {
                continue; // the last line, cut short by the stop
            }
            [$op, $t0, $t1, $cpu0, $cpu1, $queue0, $queue1, $ok, $served] = $f;
            $calls[] = ['op' => $op, 't0' => (float) $t0, 't1' => (float) $t1,
                'asleep' => BlockedTime::between([(float) $t0, (float) $cpu0, (float) $queue0], [(float) $t1, (float) $cpu1, (float) $queue1]),
                'queue0' => (float) $queue0, 'queue1' => (float) $queue1, 'ok' => (int) $ok, 'served' => $served];
        }

        return $calls;
    }
}
