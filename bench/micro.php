<?php
/*
 * Microbenchmark: store and fetch of three payloads with Resident and its
 * competitors, in one run.
 *
 *   php8.2 bench/micro.php [--rounds=N] [--out=FILE] [--ext=resident.so]
 *
 * Backends whose settings are per process (APCu's serializer, Resident's
 * zero-copy mode, OPcache) run in their own worker processes. The driver
 * starts every worker once per round, in a rotated order, so the backends
 * interleave; each worker times every payload once per round. Reported: the
 * median of all rounds, and the ratio against APCu with PHP's serializer
 * (Debian's default).
 */

const PAYLOADS = ['string16', 'list1m', 'config10k', 'objects1k', 'datetime', 'carbon', 'carbon_plain', 'graph'];

final class BenchUser
{
    public function __construct(
        public int $id,
        public string $name,
        public string $email,
        public bool $active,
        public float $score,
    ) {}
}

final class BenchNode
{
    public array $children = [];
    public ?BenchNode $parent = null;
    public function __construct(public string $name) {}
}

function carbon_available(): bool
{
    static $ok = null;
    if ($ok === null) {
        $ok = is_file('/usr/share/php/Carbon/autoload.php');
        if ($ok) {
            require_once '/usr/share/php/Carbon/autoload.php';
        }
    }
    return $ok;
}

function payload(string $name): mixed
{
    switch ($name) {
        case 'string16':
            return '0123456789abcdef';
        case 'list1m':
            mt_srand(42);
            return array_fill(0, 1000000, rand(1, 9999));
        case 'config10k':
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
        case 'objects1k':
            $list = [];
            for ($i = 0; $i < 1000; $i++) {
                $list[] = new BenchUser($i, "user$i", "user$i@example.com", $i % 2 === 0, $i / 7);
            }
            return $list;
        case 'datetime':
            return new DateTime('2024-01-02 03:04:05.678901', new DateTimeZone('Asia/Tokyo'));
        case 'carbon':
            return carbon_available() ? new Carbon\Carbon('2024-01-02 03:04:05.678901', 'Asia/Tokyo') : null;
        case 'carbon_plain':
            // Not in resident.direct_classes (which lists Carbon\Carbon only):
            // what a user who configures nothing gets. The same hooks as Carbon.
            return carbon_available() ? new Carbon\CarbonImmutable('2024-01-02 03:04:05.678901', 'Asia/Tokyo') : null;
        case 'graph':
            // A tree of 200 nodes, each pointing at its parent: cycles everywhere.
            $root = new BenchNode('root');
            $all = [$root];
            for ($i = 1; $i < 200; $i++) {
                $n = new BenchNode("n$i");
                $n->parent = $all[intdiv($i - 1, 3)];
                $n->parent->children[] = $n;
                $all[] = $n;
            }
            return $root;
    }
    throw new LogicException($name);
}

/**
 * Nanoseconds per call: the median of 5 windows of 4 ms (at least one call
 * each). On a shared VM a burst of another tenant's load spoils a window,
 * not the whole sample, as it would the mean over one 20 ms window.
 */
function time_op(callable $fn, float $budget_ns = 20e6, int $windows = 5): float
{
    $fn();
    $per = [];
    for ($w = 0; $w < $windows; $w++) {
        $n = 0;
        $start = hrtime(true);
        do {
            $fn();
            $n++;
            $elapsed = hrtime(true) - $start;
        } while ($elapsed < $budget_ns / $windows && $n < 200000);
        $per[] = $elapsed / $n;
    }
    sort($per);
    return $per[intdiv($windows, 2)];
}

/** Bytes of request memory one fetch keeps (the value held, 4 fetches). */
function growth(callable $fetch): float
{
    $keep = array_fill(0, 4, null);
    $before = memory_get_usage();
    for ($i = 0; $i < 4; $i++) {
        $keep[$i] = $fetch();
    }
    $delta = memory_get_usage() - $before;
    unset($keep);
    return max(0, $delta) / 4;
}

/* ---- backends ------------------------------------------------------------ */

function backend_ops(string $backend, string $name, mixed $value, string $tmp): array
{
    static $seq = 0;
    switch ($backend) {
        case 'resident':
        case 'resident_copy':
            $c = Resident\Cache::pool('bench');
            // A borrowing request remembers where it found a literal
            // (interned) key and skips the shared index when it fetches
            // that key again until anything is stored. A key built at run
            // time is never remembered: every fetch times the lookup in
            // the shared index, what a request's first fetch of a key pays.
            $key = str_repeat($name, 1);
            return [
                'store' => fn() => $c->store($name, $value) || throw new RuntimeException("store $name"),
                'fetch' => fn() => $c->fetch($key),
                // The same literal key again in the same request.
                'fetch_memo' => fn() => $c->fetch($name),
            ];
        case 'apcu_php':
        case 'apcu_igbinary':
            return [
                'store' => fn() => apcu_store($name, $value) || throw new RuntimeException("apcu_store $name"),
                'fetch' => fn() => apcu_fetch($name),
            ];
        case 'unserialize':
            $s = serialize($value);
            return ['store' => fn() => serialize($value), 'fetch' => fn() => unserialize($s)];
        case 'igbinary':
            $s = igbinary_serialize($value);
            return ['store' => fn() => igbinary_serialize($value), 'fetch' => fn() => igbinary_unserialize($s)];
        case 'include':
            // Store: var_export to a new file and its first include (OPcache
            // compiles and persists it); fetch: include of the cached file.
            $file = '';
            $store = function () use ($value, $tmp, $name, &$file, &$seq) {
                $file = sprintf('%s/%s-%d-%d.php', $tmp, $name, getmypid(), $seq++);
                file_put_contents($file, '<?php return ' . var_export($value, true) . ';');
                return include $file;
            };
            $store();
            return ['store' => $store, 'fetch' => function () use (&$file) { return include $file; }];
    }
    throw new LogicException($backend);
}

function worker(string $backend, string $tmp): array
{
    $out = [];
    foreach (PAYLOADS as $name) {
        $value = payload($name);
        if ($value === null || ($backend === 'include' && is_object($value)) || ($backend === 'include' && $name === 'objects1k')) {
            continue;   // no Carbon here; var_export cannot restore objects
        }
        $ops = backend_ops($backend, $name, $value, $tmp);
        $store = time_op($ops['store']);
        $ops['store']();
        $got = $ops['fetch']();
        if (is_object($value) || $name === 'objects1k' ? serialize($got) !== serialize($value) : $got !== $value) {
            throw new RuntimeException("$backend returned a wrong value for $name");
        }
        unset($got);
        $fetch = time_op($ops['fetch']);
        $out[$name] = ['store' => $store, 'fetch' => $fetch, 'growth' => growth($ops['fetch'])];
        if ($backend === 'resident') {
            $out[$name]['fetch_memo'] = time_op($ops['fetch_memo']);
        }
    }
    return $out;
}

/* ---- driver ------------------------------------------------------------------ */

function php_args(string $backend, string $ext): array
{
    $dir = PHP_EXTENSION_DIR;
    $common = ['-n', '-d', 'memory_limit=-1', '-d', "extension=$dir/mbstring.so"];
    $resident = ['-d', "extension=$ext", '-d', 'resident.enable_cli=1', '-d', 'resident.memory=512M',
        '-d', 'resident.direct_classes=Carbon\\Carbon'];
    $apcu = ['-d', "extension=$dir/apcu.so", '-d', 'apc.enable_cli=1', '-d', 'apc.shm_size=512M'];
    $igbinary = ['-d', "extension=$dir/igbinary.so"];
    $opcache = ['-d', "zend_extension=$dir/opcache.so", '-d', 'opcache.enable_cli=1',
        '-d', 'opcache.memory_consumption=1024', '-d', 'opcache.interned_strings_buffer=64',
        '-d', 'opcache.max_accelerated_files=100000', '-d', 'opcache.file_update_protection=0',
        '-d', 'opcache.validate_timestamps=0', '-d', 'opcache.jit=disable'];
    return match ($backend) {
        // Fetches borrow, as every request of a php-fpm worker does.
        'resident' => [...$common, ...$resident, '-d', 'resident.zero_copy=1'],
        // What a CLI script gets by default: a private copy per fetch.
        'resident_copy' => [...$common, ...$resident, '-d', 'resident.zero_copy=0'],
        'apcu_php' => [...$common, ...$apcu, '-d', 'apc.serializer=php'],
        'apcu_igbinary' => [...$common, ...$igbinary, ...$apcu, '-d', 'apc.serializer=igbinary'],
        'unserialize' => $common,
        'igbinary' => [...$common, ...$igbinary],
        'include' => [...$common, ...$opcache],
    };
}

/* What each row's fetch and store time. */
const LABELS = [
    'resident' => 'Resident, zero-copy (as in php-fpm): fetch() looks the key up in the shared index',
    'resident_copy' => 'Resident, copy (CLI default): fetch() looks the key up in the shared index and copies',
    'apcu_php' => 'APCu, apc.serializer=php (baseline): apcu_fetch() and unserialize',
    'apcu_igbinary' => 'APCu, apc.serializer=igbinary: apcu_fetch() and igbinary_unserialize',
    'unserialize' => 'serialize / unserialize of a string in request memory',
    'igbinary' => 'igbinary_serialize / _unserialize of a string in request memory',
    'include' => 'OPcache include of var_export file',
];
/* A row of the resident worker's: what a borrowing request's second fetch
 * of a literal key costs (the request-local memo; no store, no growth). */
const MEMO_LABEL = 'Resident, zero-copy, the same literal key fetched again in the request (request-local memo, not the shared index)';

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
    if ($x >= 100) {
        return sprintf('%sx', number_format($x, 0, '.', ','));
    }
    return sprintf('%.2fx', $x);
}

function fmt_bytes(float $b): string
{
    return $b >= 1048576 ? sprintf('%.1f MB', $b / 1048576) : number_format($b, 0, '.', ',') . ' B';
}

function driver(array $opts): int
{
    $rounds = (int)($opts['rounds'] ?? 5);
    $ext = $opts['ext'] ?? dirname(__DIR__) . '/build/php-8.2/modules/resident.so';
    $backends = array_keys(LABELS);
    $tmp = sys_get_temp_dir() . '/resident-bench-' . getmypid();
    @mkdir($tmp);
    $samples = [];
    for ($r = 0; $r < $rounds; $r++) {
        $order = array_merge(array_slice($backends, $r % count($backends)), array_slice($backends, 0, $r % count($backends)));
        fprintf(STDERR, "round %d/%d:", $r + 1, $rounds);
        foreach ($order as $backend) {
            fprintf(STDERR, " %s", $backend);
            $cmd = array_merge([PHP_BINARY], php_args($backend, $ext), [__FILE__, '--worker=' . $backend, '--tmp=' . $tmp]);
            $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            $json = stream_get_contents($pipes[1]);
            $err = stream_get_contents($pipes[2]);
            if (proc_close($proc) !== 0 || !is_array($res = json_decode($json, true))) {
                fprintf(STDERR, "\nworker %s failed:\n%s%s\n", $backend, $json, $err);
                return 1;
            }
            foreach ($res as $payload => $m) {
                foreach ($m as $metric => $v) {
                    $samples[$backend][$payload][$metric][] = $v;
                }
            }
        }
        fprintf(STDERR, "\n");
        array_map('unlink', glob("$tmp/*.php"));
    }
    @rmdir($tmp);

    $med = [];
    foreach ($samples as $b => $ps) {
        foreach ($ps as $p => $ms) {
            foreach ($ms as $m => $vs) {
                $med[$b][$p][$m] = median($vs);
            }
        }
    }

    $titles = ['string16' => '16-byte string', 'list1m' => '1,000,000-int list', 'config10k' => 'config, 10,000 leaves (4 levels)',
        'objects1k' => '1,000 objects (5 typed properties)', 'datetime' => 'DateTime', 'carbon' => 'Carbon (resident.direct_classes=Carbon\\Carbon)',
        'carbon_plain' => 'CarbonImmutable (no configuration: its __serialize()/__unserialize() run)',
        'graph' => 'object graph, 200 nodes with parent cycles'];
    $lines = [];
    $lines[] = sprintf('Run: %s, %s, PHP %s, %d rounds (medians; ratio = APCu php-serializer time / this time, higher is faster)',
        date('Y-m-d'), php_uname('n'), PHP_VERSION, $rounds);
    foreach (PAYLOADS as $p) {
        if (!isset($med['apcu_php'][$p])) {
            continue;
        }
        $lines[] = '';
        $lines[] = "### {$titles[$p]}";
        $lines[] = '';
        $lines[] = '| backend | fetch | vs APCu | store | vs APCu | memory kept per fetch |';
        $lines[] = '|---|---:|---:|---:|---:|---:|';
        $base = $med['apcu_php'][$p];
        foreach ($backends as $b) {
            if (!isset($med[$b][$p])) {
                continue;
            }
            $m = $med[$b][$p];
            $lines[] = sprintf('| %s | %s | %s | %s | %s | %s |', LABELS[$b],
                fmt_ns($m['fetch']), fmt_ratio($base['fetch'] / $m['fetch']),
                fmt_ns($m['store']), fmt_ratio($base['store'] / $m['store']), fmt_bytes($m['growth']));
            if (isset($m['fetch_memo'])) {
                $lines[] = sprintf('| %s | %s | %s | | | |', MEMO_LABEL,
                    fmt_ns($m['fetch_memo']), fmt_ratio($base['fetch'] / $m['fetch_memo']));
            }
        }
    }

    // Goals compare two backends by the median, over rounds, of their ratio
    // within a round: the two were timed seconds apart, so the VM's speed
    // drifting over minutes cancels out (medians of each taken apart moved
    // a goal across its line between identical runs).
    $per_round = function (string $b, string $p, string ...$metrics) use ($samples): array {
        $sum = [];
        foreach ($metrics as $m) {
            foreach ($samples[$b][$p][$m] as $i => $v) {
                $sum[$i] = ($sum[$i] ?? 0) + $v;
            }
        }
        return $sum;
    };
    $ratio = function (array $a, array $b): float {
        return median(array_map(fn ($x, $y) => $x / $y, $a, $b));
    };
    $r = $med['resident'];
    // A borrowing round trip: the fetch of the zero-copy worker, the store of
    // the copy-mode one (see the note below the goals on why).
    $borrowed_round_trip = fn (string $p) => array_map(fn ($s, $f) => $s + $f,
        $per_round('resident_copy', $p, 'store'), $per_round('resident', $p, 'fetch'));
    $f = fn (string $b, string $p) => $per_round($b, $p, 'fetch');
    $list_vs_apcu = $ratio($f('apcu_php', 'list1m'), $f('resident', 'list1m'));
    $list_vs_include = $ratio($f('resident', 'list1m'), $f('include', 'list1m'));
    $s16_php = $ratio($f('resident', 'string16'), $f('apcu_php', 'string16'));
    $s16_igb = $ratio($f('resident', 'string16'), $f('apcu_igbinary', 'string16'));
    $goals = [
        [sprintf('fetch of the 1M-int list at least 100,000x faster than apcu_fetch (php serializer) (issue #2): %sx', number_format($list_vs_apcu, 0)),
            $list_vs_apcu >= 100000],
        [sprintf('fetch of the 1M-int list within 2x of the OPcache include: %.2fx', $list_vs_include), $list_vs_include <= 2],
        [sprintf('fetch of the 16-byte string no slower than apcu_fetch: %.2fx (php), %.2fx (igbinary)', $s16_php, $s16_igb),
            $s16_php <= 1 && $s16_igb <= 1],
        ['0 bytes of request memory per zero-copy fetch (strings and arrays)',
            max($r['string16']['growth'], $r['list1m']['growth'], $r['config10k']['growth']) == 0],
    ];
    foreach (['string16', 'list1m', 'config10k'] as $p) {
        $x = $ratio($per_round('resident_copy', $p, 'store'), $per_round('apcu_igbinary', $p, 'store'));
        $goals[] = [sprintf("store of the $titles[$p] no slower than apcu_store with igbinary: %.2fx", $x), $x <= 1];
    }
    $x = $ratio($f('resident', 'objects1k'), $f('apcu_igbinary', 'objects1k'));
    $goals[] = [sprintf('fetch of 1,000 small objects at most 0.2x the time of APCu with igbinary (issue #4): %.3fx', $x), $x <= 0.2];
    $goals[] = [sprintf('fetch of 1,000 small objects at most 0.15x the time of APCu with igbinary (issue 26): %.3fx', $x), $x <= 0.15];
    $x = $ratio($f('resident', 'datetime'), $f('apcu_php', 'datetime'));
    $goals[] = [sprintf('DateTime fetch at most 0.3x APCu (issue #4): %.3fx', $x), $x <= 0.3];
    if (isset($r['carbon'])) {
        $roundtrip = $med['resident_copy']['carbon']['store'] + $med['resident_copy']['carbon']['fetch'];
        $baseline = $med['unserialize']['carbon']['store'] + $med['unserialize']['carbon']['fetch'];
        $x = $ratio($per_round('resident_copy', 'carbon', 'store', 'fetch'), $per_round('unserialize', 'carbon', 'store', 'fetch'));
        $goals[] = [sprintf('Carbon round trip (store + fetch) at most 0.15x unserialize(serialize()) (issue #4): %s vs %s, %.2fx',
            fmt_ns($roundtrip), fmt_ns($baseline), $x), $x <= 0.15];
        $y = $ratio($borrowed_round_trip('carbon'), $per_round('unserialize', 'carbon', 'store', 'fetch'));
        $goals[] = [sprintf('Carbon round trip with resident.direct_classes at most 0.1x unserialize(serialize()) (issue 26): %.2fx (copy), %.2fx (borrow)',
            $x, $y), $x <= 0.1 && $y <= 0.1];
    }
    if (isset($r['carbon_plain'])) {
        $x = $ratio($per_round('resident_copy', 'carbon_plain', 'store', 'fetch'), $per_round('unserialize', 'carbon_plain', 'store', 'fetch'));
        $y = $ratio($borrowed_round_trip('carbon_plain'), $per_round('unserialize', 'carbon_plain', 'store', 'fetch'));
        $goals[] = [sprintf('Carbon round trip with no configuration at most 0.5x unserialize(serialize()) (issue 26): %.2fx (copy), %.2fx (borrow)',
            $x, $y), $x <= 0.5 && $y <= 0.5];
    }
    $lines[] = '';
    $lines[] = '### Goals';
    $lines[] = '';
    $lines[] = 'Each ratio is the median over rounds of the two times taken in the same round.';
    $lines[] = '';
    foreach ($goals as [$text, $met]) {
        $lines[] = sprintf('- %s %s', $met ? '[met]' : '[NOT MET]', $text);
    }
    $lines[] = '';
    $lines[] = 'Store of Resident is timed in the copy-mode worker: a zero-copy worker keeps every value it';
    $lines[] = 'replaced until its request ends, which a php-fpm request does within milliseconds.';
    $lines[] = 'Resident\'s fetch rows use a key built at run time, which no request-local memo remembers: each';
    $lines[] = 'fetch looks the key up in the shared index, as the first fetch of a key in a request does. The';
    $lines[] = '"same literal key fetched again" row is a borrowing request\'s later fetches of a literal key,';
    $lines[] = 'found in the request\'s memo until anything is stored; goals use the shared-index rows.';
    $text = implode("\n", $lines) . "\n";
    echo $text;
    if (!empty($opts['out'])) {
        file_put_contents($opts['out'], "# Microbenchmark\n\nCommand: `make bench` (`php8.2 bench/micro.php`)\n\n" . $text);
    }
    return 0;
}

$opts = [];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
if (isset($opts['worker'])) {
    echo json_encode(worker($opts['worker'], $opts['tmp']));
    exit(0);
}
exit(driver($opts));
