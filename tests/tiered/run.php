<?php
/*
 * Resident\Tiered on two "hosts" of one machine: each host is a php-fpm
 * master with its own named segment and its own bin/resident-invalidator,
 * both in front of one redis-server started here on 127.0.0.1 (a free
 * port). The application is tests/tiered/www/app.php, driven over FastCGI.
 *
 *   php8.2 -n -d extension=posix tests/tiered/run.php [php-fpm binary] [resident.so]
 *
 * Needs redis-server, phpredis (php8.2-redis) and the posix extension.
 * Prints one PASS/FAIL line per check, the measured invalidation lag, and
 * "tiered: N passed, N failed".
 */
declare(strict_types=1);

require __DIR__ . '/../fpm/Fpm.php';
require __DIR__ . '/../../lib/tests/Tiered/Servers/Server.php';
require __DIR__ . '/../../lib/tests/Tiered/Servers/RedisServer.php';

use Resident\Tests\Tiered\Servers\RedisServer;

[$_, $fpmBinary, $ext] = $argv + [null, '/usr/sbin/php-fpm8.2', dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
const LOCAL_TTL = 10;       // seconds: Tiered's $localTtl and the listeners' --local-ttl
const LAG_BOUND = 0.1;      // seconds: the issue's bound for a write on A to be seen on B

if (!extension_loaded('posix')) {
    fwrite(STDERR, "the posix extension is needed: php -d extension=posix\n");
    echo "tiered: 0 passed, 1 failed\n";
    exit(1);
}
foreach (['redis', 'igbinary', 'msgpack'] as $needed) {
    if (!is_file(PHP_EXTENSION_DIR . "/$needed.so")) {
        fwrite(STDERR, "missing " . PHP_EXTENSION_DIR . "/$needed.so: run scripts/install-deps.sh (php8.2-redis)\n");
        echo "tiered: 0 passed, 1 failed\n";
        exit(1);
    }
}

$passed = $failed = 0;
function check(string $name, bool $ok, string $detail = ''): void
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    printf("%s %s%s\n", $ok ? 'PASS' : 'FAIL', $name, $ok || $detail === '' ? '' : ": $detail");
}

/** One host: a php-fpm master on its own named segment, and its listener. */
final class Host
{
    public readonly Fpm $fpm;
    public readonly string $segment;
    public readonly string $log;
    /** @var resource|null */
    private $listener = null;
    private string $app;

    public function __construct(public readonly string $name, string $fpmBinary, private readonly string $ext, private int $redisPort)
    {
        $this->segment = "tiered-test-$name-" . getmypid() . '-' . bin2hex(random_bytes(3));
        $this->app = __DIR__ . '/www/app.php';
        $this->fpm = new Fpm($fpmBinary, ['extension=igbinary', 'extension=msgpack', 'extension=redis', "extension={$this->ext}",
            'resident.memory=32M', "resident.segment={$this->segment}", 'display_errors=stderr', 'log_errors=1', 'error_log=/dev/stderr'],
            2, ['env[TIERED_REDIS]' => "127.0.0.1:$redisPort", 'env[TIERED_HOST]' => $name, 'env[TIERED_LOCAL_TTL]' => (string) LOCAL_TTL]);
        $this->log = $this->fpm->dir . '/invalidator.log';
    }

    /** @return array<string, mixed> the app's JSON answer */
    public function call(string $op, array $params = []): array
    {
        [, $body] = $this->fpm->client->get($this->app, http_build_query(['op' => $op] + $params));
        $decoded = json_decode($body, true);
        if (!is_array($decoded)) {
            throw new RuntimeException("host {$this->name}, $op: " . $body);
        }

        return $decoded;
    }

    public function get(string $key, string $ns = 'catalog'): array
    {
        return $this->call('get', ['ns' => $ns, 'key' => $key]);
    }

    public function set(string $key, mixed $value, string $ns = 'catalog'): array
    {
        return $this->call('set', ['ns' => $ns, 'key' => $key, 'value' => json_encode($value)]);
    }

    /** Starts bin/resident-invalidator and waits until it has subscribed (again). */
    public function startListener(): void
    {
        $before = $this->subscriptions();
        $this->listener = proc_open([PHP_BINARY, '-n', dirname(__DIR__, 2) . '/bin/resident-invalidator', "--segment={$this->segment}",
            "--redis=tcp://127.0.0.1:{$this->redisPort}", "--extension={$this->ext}", '--local-ttl=' . LOCAL_TTL],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $this->log, 'a'], 2 => ['file', $this->log, 'a']], $pipes);
        if (!$this->waitForSubscriptions($before + 1, 10.0)) {
            throw new RuntimeException("the listener of host {$this->name} did not subscribe:\n" . $this->logText());
        }
    }

    public function listenerPid(): int
    {
        return $this->listener ? proc_get_status($this->listener)['pid'] : 0;
    }

    /** Sends $signal to the listener; returns its exit status (-1 if it did not end within 3 s). */
    public function stopListener(int $signal): int
    {
        if (!$this->listener) {
            return -1;
        }
        $pid = $this->listenerPid();
        posix_kill($pid, $signal);
        for ($i = 0; $i < 300; $i++) {
            $status = proc_get_status($this->listener);
            if (!$status['running']) {
                proc_close($this->listener);
                $this->listener = null;

                return $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
            }
            usleep(10000);
        }
        posix_kill($pid, SIGKILL);
        proc_close($this->listener);
        $this->listener = null;

        return -1;
    }

    /** How many times the listener has said it subscribed (cleared and resynced). */
    public function subscriptions(): int
    {
        return substr_count($this->logText(), 'local tier cleared');
    }

    public function waitForSubscriptions(int $count, float $timeout): bool
    {
        $deadline = microtime(true) + $timeout;
        while ($this->subscriptions() < $count) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(20000);
        }

        return true;
    }

    public function logText(): string
    {
        return (string) @file_get_contents($this->log);
    }

    /** The php-fpm master and its workers. @return list<int> */
    public function fpmPids(): array
    {
        $master = 0;
        $parents = [];
        foreach (glob('/proc/[0-9]*') as $proc) {
            $cmdline = (string) @file_get_contents("$proc/cmdline");
            $stat = (string) @file_get_contents("$proc/stat");
            $pid = (int) basename($proc);
            if (str_contains($cmdline, "{$this->fpm->dir}/fpm.conf") && str_starts_with($cmdline, 'php-fpm: master')) {
                $master = $pid;
            }
            // pid (comm) state ppid ...
            if (preg_match('/\) \S (\d+)/', $stat, $m)) {
                $parents[$pid] = (int) $m[1];
            }
        }

        return $master ? array_merge([$master], array_keys($parents, $master, true)) : [];
    }

    /**
     * Stops the listener (SIGTERM), then php-fpm; removes the segment.
     *
     * @return array{listener: int, said: bool, fpm: bool} the listener's exit status, whether it logged
     *   that it stopped, whether php-fpm's master and workers are gone
     */
    public function stop(): array
    {
        $rc = $this->listener ? $this->stopListener(SIGTERM) : 0;
        $said = str_ends_with(rtrim($this->logText()), ': stopped');
        $pids = $this->fpmPids();
        $this->fpm->stop();
        @unlink("/dev/shm/resident-{$this->segment}");
        $gone = count($pids) === 3 && !array_filter($pids, fn ($pid) => posix_kill($pid, 0));

        return ['listener' => $rc, 'said' => $said, 'fpm' => $gone];
    }
}

/** Polls $until() until it gives a non-null answer or $bound * 10 passes; returns [answer, seconds since $start]. */
function poll(float $start, float $bound, Closure $until): array
{
    do {
        $answer = $until();
        $elapsed = microtime(true) - $start;
        if ($answer !== null) {
            return [$answer, $elapsed];
        }
    } while ($elapsed < 10 * $bound);

    return [null, $elapsed];
}

function ms(float $seconds): string
{
    return sprintf('%.1f ms', $seconds * 1000);
}

$started = microtime(true);
$redis = new RedisServer();
$a = new Host('a', $fpmBinary, $ext, $redis->port);
$b = new Host('b', $fpmBinary, $ext, $redis->port);
$hosts = [$a, $b];
$logs = fn (): string => "\n--- host a listener:\n" . $a->logText() . "--- host b listener:\n" . $b->logText()
    . "--- host a php-fpm:\n" . $a->fpm->log() . "--- host b php-fpm:\n" . $b->fpm->log();

$tests = [
    'each host is a php-fpm master with its own segment, borrowing (zero-copy), and its own listener' => function () use ($a, $b) {
        $a->startListener();
        $b->startListener();
        $sa = $a->call('status');
        $sb = $b->call('status');
        $ok = $sa['available'] && $sb['available'] && $sa['zero_copy'] === 'borrow' && $sb['zero_copy'] === 'borrow'
            && $sa['segment'] === "/dev/shm/resident-{$a->segment}" && $sb['segment'] === "/dev/shm/resident-{$b->segment}"
            && $a->listenerPid() !== $b->listenerPid();

        return [$ok, json_encode([$sa, $sb])];
    },
    'a write on A drops B\'s local copy and B reads the new value within 100 ms (20 writes)' => function () use ($a, $b) {
        $lags = [];
        $wrong = [];
        for ($i = 1; $i <= 20; $i++) {
            $a->set('price', $i - 1);
            // B holds a local copy of the old value...
            [$seen] = poll(microtime(true), LAG_BOUND, fn () => ($r = $b->get('price'))['value'] === $i - 1 && $r['source'] === 'local' ? $r : null);
            if ($seen === null) {
                $wrong[] = "write $i: B has no local copy of the old value";
                continue;
            }
            $start = microtime(true);
            if (!$a->set('price', $i)['ok']) {
                $wrong[] = "write $i failed";
                continue;
            }
            // ... until its listener drops it: then B reads the new value from Redis.
            [$r, $lag] = poll($start, LAG_BOUND, fn () => ($r = $b->get('price'))['value'] === $i ? $r : null);
            if ($r === null || $r['source'] !== 'shared') {
                $wrong[] = "write $i: " . json_encode($r);
            }
            $lags[] = $lag;
        }
        sort($lags);
        $median = $lags[intdiv(count($lags), 2)] ?? INF;
        $max = end($lags) ?: INF;
        printf("     invalidation lag, a write through A to its first read on B: median %s, max %s over %d writes\n", ms($median), ms($max), count($lags));

        return [!$wrong && count($lags) === 20 && $max < LAG_BOUND, implode('; ', $wrong) . " max lag " . ms($max)];
    },
    'after an invalidation B refills once from Redis, then serves zero-copy local hits' => function () use ($a, $b) {
        $a->call('big', ['ns' => 'catalog', 'key' => 'table', 'n' => 100000]);
        $b->get('table');
        $start = microtime(true);
        $a->call('big', ['ns' => 'catalog', 'key' => 'table', 'n' => 100001]);
        [$first] = poll($start, LAG_BOUND, fn () => ($r = $b->get('table'))['value'] === 'array of 100001' ? $r : null);
        $reads = [];
        for ($i = 0; $i < 6; $i++) {
            $reads[] = $b->get('table');
        }
        $local = array_filter($reads, fn ($r) => $r['source'] === 'local' && $r['value'] === 'array of 100001' && $r['growth'] < 65536);

        return [$first !== null && $first['source'] === 'shared' && $first['growth'] > 1000000 && count($local) === 6,
            json_encode(['first' => $first, 'then' => $reads])];
    },
    'a delete on A reaches B within 100 ms (5 deletes)' => function () use ($a, $b) {
        $wrong = [];
        $max = 0.0;
        for ($i = 1; $i <= 5; $i++) {
            $a->set("gone-$i", 'here');
            [$seen] = poll(microtime(true), LAG_BOUND, fn () => $b->get("gone-$i")['source'] === 'local' ? true : null);
            $start = microtime(true);
            $ok = $a->call('delete', ['ns' => 'catalog', 'key' => "gone-$i"])['ok'];
            [$r, $lag] = poll($start, LAG_BOUND, fn () => ($r = $b->get("gone-$i"))['hit'] ? null : $r);
            $max = max($max, $lag);
            if (!$seen || !$ok || $r === null || $r['source'] !== 'miss') {
                $wrong[] = "delete $i: " . json_encode($r);
            }
        }
        printf("     delete lag: max %s over 5 deletes\n", ms($max));

        return [!$wrong && $max < LAG_BOUND, implode('; ', $wrong) . ' max lag ' . ms($max)];
    },
    'a namespace clear on A drops the namespace on both hosts with one message, within 100 ms; other namespaces stay' => function () use ($a, $b) {
        foreach (['k1', 'k2', 'k3'] as $k) {
            $a->set($k, "v-$k");
        }
        $a->set('ann', 'Ann', 'users');
        foreach (['k1', 'k2', 'k3'] as $k) {
            poll(microtime(true), LAG_BOUND, fn () => $b->get($k)['source'] === 'local' ? true : null);
        }
        poll(microtime(true), LAG_BOUND, fn () => $b->get('ann', 'users')['source'] === 'local' ? true : null);
        $start = microtime(true);
        $generation = $a->call('clear', ['ns' => 'catalog'])['generation'];
        $onA = array_map(fn ($k) => $a->get($k)['hit'], ['k1', 'k2', 'k3']);
        [$gone, $lag] = poll($start, LAG_BOUND, function () use ($b) {
            foreach (['k1', 'k2', 'k3'] as $k) {
                if ($b->get($k)['hit']) {
                    return null;
                }
            }

            return true;
        });
        $users = $b->get('ann', 'users');
        printf("     namespace clear lag: %s\n", ms($lag));

        return [is_int($generation) && $onA === [false, false, false] && $gone && $lag < LAG_BOUND
            && $users['value'] === 'Ann' && $users['source'] === 'local', json_encode([$generation, $onA, $lag, $users])];
    },
    'a listener killed (SIGKILL) and restarted: the host clears and resyncs instead of serving what it missed' => function () use ($a, $b) {
        $a->set('flag', 'old');
        $a->set('bob', 'Bob', 'users');
        poll(microtime(true), LAG_BOUND, fn () => $b->get('flag')['source'] === 'local' ? true : null);
        poll(microtime(true), LAG_BOUND, fn () => $b->get('bob', 'users')['source'] === 'local' ? true : null);
        $killed = $b->stopListener(SIGKILL);
        $a->set('flag', 'new');
        $a->call('clear', ['ns' => 'users']);
        usleep(200000);
        // Without its listener B cannot know: its copies live at most the local TTL (documented).
        $stale = $b->get('flag');
        $b->startListener();
        $flag = $b->get('flag');
        $bob = $b->get('bob', 'users');
        $ok = $killed === 128 + SIGKILL && $stale['value'] === 'old' && $stale['source'] === 'local'
            && $flag['value'] === 'new' && $flag['source'] === 'shared' && !$bob['hit'];

        return [$ok, json_encode(compact('killed', 'stale', 'flag', 'bob'))];
    },
    'Redis restarted empty: writes fail while it is down, both listeners reconnect, clear and resync; no stale copy is served' => function () use ($a, $b, $redis) {
        $a->set('color', 'red');
        poll(microtime(true), LAG_BOUND, fn () => $b->get('color')['source'] === 'local' ? true : null);
        $subscriptions = [$a->subscriptions(), $b->subscriptions()];
        $redis->stop(false);
        $down = $a->set('color', 'blue');
        usleep(300000);
        $redis->start();            // same port, no persistence: everything is gone
        $reconnected = $a->waitForSubscriptions($subscriptions[0] + 1, 10.0) && $b->waitForSubscriptions($subscriptions[1] + 1, 10.0);
        $afterA = $a->get('color');
        $afterB = $b->get('color');
        $start = microtime(true);
        $a->set('color', 'green');
        [$green, $lag] = poll($start, LAG_BOUND, fn () => ($r = $b->get('color'))['value'] === 'green' ? $r : null);
        $ok = !$down['ok'] && $down['errors'] !== [] && $reconnected && !$afterA['hit'] && !$afterB['hit']
            && $green !== null && $lag < LAG_BOUND;

        return [$ok, json_encode(compact('down', 'reconnected', 'afterA', 'afterB', 'green', 'lag'))];
    },
];

foreach ($tests as $name => $test) {
    try {
        [$ok, $detail] = $test();
        check($name, $ok, $ok ? '' : $detail . $logs());
    } catch (Throwable $e) {
        check($name, false, $e->getMessage() . $logs());
    }
}

// Everything stops: the listeners on SIGTERM (exit 0, "stopped"), php-fpm, Redis.
$listenerLogs = $logs();
$results = [];
foreach ($hosts as $host) {
    $results[$host->name] = $host->stop();
}
$redis->stop();
$leftover = array_filter([$a->segment, $b->segment], fn ($s) => file_exists("/dev/shm/resident-$s"));
$clean = ['listener' => 0, 'said' => true, 'fpm' => true];
$quiet = preg_match('/PHP (Fatal error|Warning|Notice|Deprecated)/', $listenerLogs) === 0;
$ok = $results['a'] === $clean && $results['b'] === $clean && !$redis->running() && !$leftover && $quiet;
check('everything stops cleanly: the listeners on SIGTERM with status 0, both php-fpm masters, Redis; no PHP error logged', $ok,
    json_encode($results) . $listenerLogs);
printf("     %.1f s in all\n", microtime(true) - $started);

echo "tiered: $passed passed, $failed failed\n";
exit($failed ? 1 : 0);
