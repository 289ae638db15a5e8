<?php
/*
 * Counters and single-flight computation under contention, Resident against
 * APCu, in one run:
 *
 *   php8.2 -d extension=resident.so -d extension=apcu.so ... bench/atomic.php [--seconds=S] [--rounds=N] [--out=FILE]
 *
 * - increment: P processes (1 and 4) increment one shared key for S
 *   seconds; total operations per second. Resident\Cache::increment (a CAS
 *   on the entry, no lock) against apcu_inc.
 * - remember: 4 processes ask for one key whose value takes 2 ms to build
 *   and expires every second. Resident\Cache::remember (only callers of that
 *   key wait; with a stale period nobody waits) against apcu_entry (which
 *   holds APCu's write lock while the value is built). Reported: calls per
 *   second, median and 99th percentile call latency, computations.
 * Backends alternate over rounds; medians are reported.
 */

$opts = ['seconds' => 2, 'rounds' => 3, 'out' => ''];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
if (!extension_loaded('resident') || !extension_loaded('apcu') || !function_exists('pcntl_fork')) {
    fwrite(STDERR, "atomic bench: needs resident, apcu and pcntl\n");
    exit(1);
}

function build_value(): array
{
    $end = hrtime(true) + 2_000_000;         // 2 ms of work
    $v = [];
    while (hrtime(true) < $end) {
        $v[] = md5((string)count($v));
    }
    return array_slice($v, 0, 100);
}

/** Runs $fn in $n processes for $seconds; returns their results. */
function parallel(int $n, float $seconds, callable $fn): array
{
    $files = $pids = [];
    $start = microtime(true) + 0.1;
    for ($i = 0; $i < $n; $i++) {
        $files[$i] = tempnam(sys_get_temp_dir(), 'resident-atomic');
        if (($pid = pcntl_fork()) === 0) {
            time_sleep_until($start);
            file_put_contents($files[$i], serialize($fn($start + $seconds)));
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    $out = [];
    foreach ($files as $f) {
        $out[] = unserialize(file_get_contents($f));
        unlink($f);
    }
    return $out;
}

function increments(string $backend, int $procs, float $seconds): float
{
    $c = Resident\Cache::pool('atomic-bench');
    $c->delete('n');
    apcu_delete('n');
    $counts = parallel($procs, $seconds, function (float $until) use ($backend, $c) {
        $n = 0;
        if ($backend === 'resident') {
            while (microtime(true) < $until) {
                for ($i = 0; $i < 1000; $i++) {
                    $c->increment('n');
                }
                $n += 1000;
            }
        } else {
            while (microtime(true) < $until) {
                for ($i = 0; $i < 1000; $i++) {
                    apcu_inc('n', 1, $ok);
                }
                $n += 1000;
            }
        }
        return $n;
    });
    $total = array_sum($counts);
    $final = $backend === 'resident' ? $c->fetch('n') : apcu_fetch('n');
    if ($final !== $total) {
        fwrite(STDERR, "atomic bench: $backend lost updates: $final of $total\n");
        exit(1);
    }
    return $total / $seconds;
}

function remembers(string $backend, float $seconds, int $stale): array
{
    $c = Resident\Cache::pool('atomic-bench');
    $c->delete('report');
    $c->delete('computations');
    apcu_delete('report');
    apcu_delete('computations');
    $results = parallel(4, $seconds, function (float $until) use ($backend, $c, $stale) {
        $hist = [];                      // latency histogram, 5% wide buckets
        $calls = 0;
        $compute = function () use ($backend, $c) {
            $backend === 'apcu' ? apcu_inc('computations', 1, $ok) : $c->increment('computations');
            return build_value();
        };
        while (microtime(true) < $until) {
            $t = hrtime(true);
            $v = $backend === 'apcu' ? apcu_entry('report', $compute, 1) : $c->remember('report', $compute, 1, $stale);
            $b = (int)(log(max(1, hrtime(true) - $t)) / log(1.05));
            $hist[$b] = ($hist[$b] ?? 0) + 1;
            $calls++;
            if (count($v) !== 100) {
                fwrite(STDERR, "atomic bench: $backend returned a wrong value\n");
                exit(1);
            }
        }
        return $hist;
    });
    $hist = [];
    foreach ($results as $h) {
        foreach ($h as $b => $n) {
            $hist[$b] = ($hist[$b] ?? 0) + $n;
        }
    }
    ksort($hist);
    $total = array_sum($hist);
    $quantile = function (float $q) use ($hist, $total) {
        $seen = 0;
        foreach ($hist as $b => $n) {
            $seen += $n;
            if ($seen >= $q * $total) {
                return 1.05 ** ($b + 0.5) / 1000;
            }
        }
        return 0;
    };
    $computations = $backend === 'apcu' ? apcu_fetch('computations') : $c->fetch('computations');
    return [
        'calls' => $total / $seconds,
        'p50' => $quantile(0.5),
        'p99' => $quantile(0.99),
        'computations' => $computations,
    ];
}

function median(array $xs): float
{
    sort($xs);
    return $xs[intdiv(count($xs), 2)];
}

$s = (float)$opts['seconds'];
$inc = $rem = [];
for ($r = 0; $r < (int)$opts['rounds']; $r++) {
    $order = $r % 2 ? ['apcu', 'resident'] : ['resident', 'apcu'];
    foreach ($order as $b) {
        $inc[$b][1][] = increments($b, 1, $s);
        $inc[$b][4][] = increments($b, 4, $s);
        foreach ($b === 'apcu' ? [0] : [0, 60] as $stale) {
            $key = $b . ($stale ? '+stale' : '');
            foreach (remembers($b, $s, $stale) as $k => $v) {
                $rem[$key][$k][] = $v;
            }
        }
        fprintf(STDERR, "round %d: %s done\n", $r + 1, $b);
    }
}

$lines = [];
$lines[] = sprintf('Run: %s, %s, PHP %s, %d rounds of %.0f s (medians).', date('Y-m-d'), php_uname('n'), PHP_VERSION, $opts['rounds'], $s);
$lines[] = '';
$lines[] = '| increment, one shared key | 1 process | 4 processes | 4 processes vs APCu |';
$lines[] = '|---|---:|---:|---:|';
foreach (['apcu' => 'apcu_inc', 'resident' => 'Resident\Cache::increment'] as $b => $label) {
    $lines[] = sprintf('| %s | %s ops/s | %s ops/s | %.2fx |', $label, number_format(median($inc[$b][1])),
        number_format(median($inc[$b][4])), median($inc[$b][4]) / median($inc['apcu'][4]));
}
$lines[] = '';
$lines[] = '| 4 processes, one key built in 2 ms, TTL 1 s | calls/s | median call | p99 call | computations |';
$lines[] = '|---|---:|---:|---:|---:|';
$labels = ['apcu' => 'apcu_entry', 'resident' => 'Resident\Cache::remember', 'resident+stale' => 'remember, staleTtl 60 s'];
foreach ($labels as $b => $label) {
    $m = $rem[$b];
    $lines[] = sprintf('| %s | %s | %.1f µs | %.1f µs | %d |', $label, number_format(median($m['calls'])),
        median($m['p50']), median($m['p99']), median($m['computations']));
}
$text = implode("\n", $lines) . "\n";
echo $text;
if ($opts['out']) {
    file_put_contents($opts['out'], "# Counters and remember() under contention\n\nCommand: `make bench`\n\n" . $text);
}
