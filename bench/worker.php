<?php
/*
 * A long-running worker (RoadRunner, FrankenPHP's worker mode, Workerman, a
 * queue consumer) serving a synthetic stream of requests, each of which
 * reads a 10,000-leaf configuration and a 1,000-object graph from its
 * cache, as a worker that keeps neither in its own memory does:
 *
 * - Resident, borrowing, with Cache::endOfRequest() at the end of each
 *   request (zero_copy=auto borrows once a process calls it), also with
 *   resident.check_borrowed=1 (what a debug build does at each boundary);
 * - Resident copying (zero_copy=0: a private copy per fetch);
 * - APCu, private to the worker (apc.enable_cli=1, apc.serializer=php);
 * - a per-process array: both built once when the worker starts and kept in
 *   its memory (what a worker does without any cache: N workers, N copies).
 *
 *   php8.2 -n bench/worker.php [--rounds=N] [--seconds=S] [--out=FILE] [--ext=resident.so]
 *
 * Each backend runs in its own worker process, started once per round in a
 * rotated order. A worker serves requests for S seconds (at least 20) and
 * reports the mean time per request of each part: the config's fetch and
 * one leaf read, the graph's fetch and one node read, then the release of
 * both (unset(), and endOfRequest() where it is called; the collector runs
 * when the engine decides, in whichever part). Reported: the median of the
 * rounds' means, and the ratio against APCu; memory growth is
 * memory_get_usage() after the last request less after the 10th, cycles
 * collected both times.
 */

final class BenchNode
{
    public array $children = [];
    public ?BenchNode $parent = null;
    public function __construct(public string $name, public int $weight) {}
}

function config10k(): array
{
    // 4 levels of 10 string keys: 10,000 leaves of strings, ints and bools.
    $c = [];
    for ($a = 0; $a < 10; $a++) {
        for ($b = 0; $b < 10; $b++) {
            for ($d = 0; $d < 10; $d++) {
                for ($e = 0; $e < 10; $e++) {
                    $c["section$a"]["group$b"]["item$d"]["key$e"] = match ($e % 3) {
                        0 => "value-$a-$b-$d-$e",
                        1 => $a * 1000 + $e,
                        2 => ($d + $e) % 2 === 0,
                    };
                }
            }
        }
    }
    return $c;
}

function graph1k(): BenchNode
{
    // A tree of 1,000 nodes, each pointing at its parent: cycles everywhere.
    $root = new BenchNode('root', 0);
    $all = [$root];
    for ($i = 1; $i < 1000; $i++) {
        $n = new BenchNode("n$i", $i);
        $n->parent = $all[intdiv($i - 1, 3)];
        $n->parent->children[] = $n;
        $all[] = $n;
    }
    return $root;
}

/* ---- worker ------------------------------------------------------------------ */

/** [config reader, graph reader, end of request] for the backend. */
function backend(string $backend): array
{
    switch ($backend) {
        case 'resident_borrow':
        case 'resident_borrow_checked':
        case 'resident_copy':
            $c = Resident\Cache::pool('bench-worker');
            $c->store('config', config10k()) || throw new RuntimeException('store config');
            $c->store('graph', graph1k()) || throw new RuntimeException('store graph');
            $end = $backend === 'resident_copy' ? fn() => null : fn() => Resident\Cache::endOfRequest() || throw new RuntimeException('endOfRequest');
            $end();
            $expected = $backend === 'resident_copy' ? 'copy' : 'borrow';
            if (Resident\Cache::status()['zero_copy'] !== $expected) {
                throw new RuntimeException("$backend: zero_copy is " . Resident\Cache::status()['zero_copy']);
            }
            return [fn() => $c->fetch('config'), fn() => $c->fetch('graph'), $end];
        case 'apcu':
            apcu_store('config', config10k()) || throw new RuntimeException('apcu_store config');
            apcu_store('graph', graph1k()) || throw new RuntimeException('apcu_store graph');
            return [fn() => apcu_fetch('config'), fn() => apcu_fetch('graph'), fn() => null];
        case 'array':
            $config = config10k();
            $graph = graph1k();
            return [fn() => $config, fn() => $graph, fn() => null];
    }
    throw new LogicException($backend);
}

function worker(string $backend, float $seconds): array
{
    [$readConfig, $readGraph, $end] = backend($backend);
    $config = $readConfig();
    $graph = $readGraph();
    if ($config !== config10k() || serialize($graph) !== serialize(graph1k())) {
        throw new RuntimeException("$backend returned a wrong value");
    }
    unset($config, $graph);
    $end();
    $sums = ['config' => 0, 'graph' => 0, 'end' => 0];
    $requests = 0;
    $memory = null;
    $deadline = hrtime(true) + (int)($seconds * 1e9);
    $checksum = 0;
    do {
        // One request: what a handler typically touches of each.
        $t0 = hrtime(true);
        $config = $readConfig();
        $checksum += $config['section7']['group3']['item5']['key1'];
        $t1 = hrtime(true);
        $graph = $readGraph();
        $checksum += $graph->children[2]->children[1]->weight;
        $t2 = hrtime(true);
        unset($config, $graph);
        $end();
        $t3 = hrtime(true);
        $sums['config'] += $t1 - $t0;
        $sums['graph'] += $t2 - $t1;
        $sums['end'] += $t3 - $t2;
        if (++$requests === 10) {
            gc_collect_cycles();
            $memory = memory_get_usage();
        }
    } while ($requests < 20 || hrtime(true) < $deadline);
    if ($checksum !== $requests * (7001 + 11)) {
        throw new RuntimeException("$backend read wrong values");
    }
    gc_collect_cycles();
    return [
        'requests' => $requests,
        'config' => $sums['config'] / $requests,
        'graph' => $sums['graph'] / $requests,
        'end' => $sums['end'] / $requests,
        'memory_growth' => memory_get_usage() - $memory,
    ];
}

/* ---- driver ------------------------------------------------------------------ */

const LABELS = [
    'resident_borrow' => 'Resident, borrowing, endOfRequest() per request',
    'resident_borrow_checked' => '... with resident.check_borrowed=1',
    'resident_copy' => 'Resident, copying (zero_copy=0)',
    'apcu' => 'APCu in the worker (baseline)',
    'array' => 'per-process array (built at start, kept)',
];

function php_args(string $backend, string $ext): array
{
    $dir = PHP_EXTENSION_DIR;
    $common = ['-n', '-d', 'memory_limit=-1'];
    $resident = ['-d', "extension=$ext", '-d', 'resident.enable_cli=1', '-d', 'resident.memory=64M'];
    return match ($backend) {
        // zero_copy=auto: the CLI borrows once the worker calls endOfRequest().
        'resident_borrow' => [...$common, ...$resident, '-d', 'resident.check_borrowed=0'],
        'resident_borrow_checked' => [...$common, ...$resident, '-d', 'resident.check_borrowed=1'],
        'resident_copy' => [...$common, ...$resident, '-d', 'resident.zero_copy=0'],
        'apcu' => [...$common, '-d', "extension=$dir/apcu.so", '-d', 'apc.enable_cli=1', '-d', 'apc.shm_size=64M', '-d', 'apc.serializer=php'],
        'array' => $common,
    };
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

function fmt_ns(float $ns): string
{
    if ($ns >= 1e6) {
        return sprintf('%.2f ms', $ns / 1e6);
    }
    if ($ns >= 1e3) {
        return sprintf('%.2f µs', $ns / 1e3);
    }
    return sprintf('%.0f ns', $ns);
}

function fmt_ratio(float $x): string
{
    return $x >= 100 ? number_format($x, 0, '.', ',') . 'x' : sprintf('%.2fx', $x);
}

$opts = getopt('', ['rounds:', 'seconds:', 'out:', 'ext:', 'worker:']);
if (isset($opts['worker'])) {
    echo json_encode(worker($opts['worker'], (float)($opts['seconds'] ?? 1.5)));
    exit(0);
}
$rounds = (int)($opts['rounds'] ?? 5);
$seconds = (float)($opts['seconds'] ?? 1.5);
$ext = $opts['ext'] ?? dirname(__DIR__) . '/build/php-8.2/modules/resident.so';
$backends = array_keys(LABELS);
$results = [];
for ($r = 0; $r < $rounds; $r++) {
    $order = [...array_slice($backends, $r % count($backends)), ...array_slice($backends, 0, $r % count($backends))];
    foreach ($order as $backend) {
        $cmd = implode(' ', array_map('escapeshellarg', [PHP_BINARY, ...php_args($backend, $ext), __FILE__,
            "--worker=$backend", "--seconds=$seconds"]));
        $out = shell_exec("$cmd 2>&1");
        $got = json_decode((string)$out, true);
        if (!is_array($got)) {
            fwrite(STDERR, "worker $backend failed: $out\n");
            exit(1);
        }
        $results[$backend][] = $got;
    }
}
$med = [];
foreach ($results as $backend => $runs) {
    foreach (['config', 'graph', 'end', 'requests', 'memory_growth'] as $k) {
        $med[$backend][$k] = median(array_column($runs, $k));
    }
    $med[$backend]['request'] = $med[$backend]['config'] + $med[$backend]['graph'] + $med[$backend]['end'];
}
$base = $med['apcu'];
$lines = [];
$lines[] = '# Worker mode: a long-running worker reading a 10k-leaf config and a 1,000-object graph per request';
$lines[] = '';
$lines[] = 'Command: `make bench` (`php8.2 -n bench/worker.php`)';
$lines[] = '';
$lines[] = sprintf('Run: %s, %s, PHP %s, %d rounds of %.1f s per backend (medians of the rounds\' means per request; ratio = APCu time / this time, higher is faster)',
    date('Y-m-d H:i'), gethostname(), PHP_VERSION, $rounds, $seconds);
$lines[] = '';
$lines[] = '| backend | config (10k leaves) | vs APCu | graph (1,000 objects) | vs APCu | release (unset, endOfRequest()) | whole request | vs APCu | requests per round | memory growth (cycles collected) |';
$lines[] = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
foreach (LABELS as $backend => $label) {
    $m = $med[$backend];
    $lines[] = sprintf('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d B |', $label,
        fmt_ns($m['config']), fmt_ratio($base['config'] / $m['config']),
        fmt_ns($m['graph']), fmt_ratio($base['graph'] / $m['graph']),
        fmt_ns($m['end']),
        fmt_ns($m['request']), fmt_ratio($base['request'] / $m['request']),
        number_format($m['requests'], 0, '.', ','), $m['memory_growth']);
}
$lines[] = '';
$table = implode("\n", $lines) . "\n";
echo $table;
if (isset($opts['out'])) {
    file_put_contents($opts['out'], $table);
}
$ratio = $base['config'] / $med['resident_borrow']['config'];
printf("borrowing reads the 10k-leaf config %s faster than APCu's fetch in the same kind of worker (needed: at least 100x): %s\n",
    fmt_ratio($ratio), $ratio >= 100 ? 'yes' : 'NO');
