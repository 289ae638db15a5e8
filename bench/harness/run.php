<?php
/*
 * The ext-user_cache proposal's benchmark, as its harness
 * (github.com/colopl/php-user_cache_benchmark_harness) measures it, rebuilt
 * for `make bench` (which reaches Debian's packages and Packagist, where the
 * harness is not): its 27 workloads (bench/harness/workloads.php) against
 * UserCache\Cache (Resident), APCu with apc.serializer=php and APCu with
 * apc.serializer=igbinary.
 *
 *   php8.2 -n bench/harness/run.php [--rounds=5] [--samples=5] [--sample-ms=20]
 *       [--cases=a,b] [--ext=build/php-8.2/modules/resident.so] [--out=FILE]
 *
 * The method is the harness's: a fresh PHP process (OPcache on, JIT off) per
 * workload, backend and mode, as the harness's per-workload isolation does,
 * since APCu's serializer is a per-process setting;
 * - read: store the value once, then time a loop that fetches the same key
 *   and reads a few fields of what it got (the workload's `read`), per fetch;
 * - write: clear the cache, then time a loop of stores of the value under 32
 *   keys in turn (later stores replace earlier ones), per store.
 * A worker times one warm-up sample and --samples samples and reports their
 * median; the harness runs 1,000 operations per sample, here the count is
 * chosen so that a sample lasts about --sample-ms (at most 100,000), which
 * keeps the slow workloads (Carbon under APCu) bounded and the fast ones
 * (a fetch of 100 ns) above the timer's noise. The three backends of a
 * workload run back to back in an order rotated per round and workload; a
 * workload's ratio is the median over rounds of that round's ratio, so the
 * machine's drift over minutes cancels out. Geomeans are over the 27 ratios.
 */

declare(strict_types=1);

const HX_BACKENDS = ['user_cache', 'user_cache_copy', 'apcu', 'apcu_igbinary'];
const HX_LABELS = [
    'user_cache' => 'Resident `UserCache\\Cache`, borrowing',
    'user_cache_copy' => 'Resident `UserCache\\Cache`, copying',
    'apcu' => 'APCu, apc.serializer=php',
    'apcu_igbinary' => 'APCu, apc.serializer=igbinary',
];
const HX_WRITE_KEYS = 32;
const HX_MAX_OPS = 100000;

/* ---- worker: one workload, one backend, one mode -------------------------------- */

function hx_backend(string $name): array
{
    if ($name === 'user_cache' || $name === 'user_cache_copy') {
        UserCache\Cache::getStatus()->getAvailability() === UserCache\CacheAvailability::Available
            || throw new RuntimeException('UserCache\\Cache is not available');
        $pool = UserCache\Cache::getPool('benchmark_user_cache');
        $missing = new stdClass();
        return [
            'clear' => fn () => $pool->clear() || throw new RuntimeException('clear() failed'),
            'store' => fn (string $k, mixed $v) => $pool->store($k, $v) || throw new RuntimeException("store($k) failed"),
            'fetch' => function (string $k) use ($pool, $missing): mixed {
                $v = $pool->fetch($k, $missing);
                return $v !== $missing ? $v : throw new RuntimeException("fetch($k) missed");
            },
        ];
    }
    if ($name === 'none') {
        // No cache (bench/harness/floor.php): the value kept in a PHP
        // array and handed back as it is, so that a read times the
        // workload's own loop and reads of the value, nothing else.
        $kept = [];
        return [
            'clear' => function () use (&$kept): void {
                $kept = [];
            },
            'store' => function (string $k, mixed $v) use (&$kept): void {
                $kept[$k] = $v;
            },
            'fetch' => function (string $k) use (&$kept): mixed {
                return $kept[$k] ?? throw new RuntimeException("fetch($k) missed");
            },
        ];
    }
    $serializer = $name === 'apcu' ? 'php' : 'igbinary';
    (apcu_enabled() && ini_get('apc.serializer') === $serializer)
        || throw new RuntimeException("APCu with apc.serializer=$serializer is not available");
    return [
        'clear' => fn () => apcu_clear_cache() || throw new RuntimeException('apcu_clear_cache() failed'),
        'store' => fn (string $k, mixed $v) => apcu_store($k, $v) || throw new RuntimeException("apcu_store($k) failed"),
        'fetch' => function (string $k): mixed {
            $v = apcu_fetch($k, $ok);
            return $ok ? $v : throw new RuntimeException("apcu_fetch($k) missed");
        },
    ];
}

/** Nanoseconds for $ops reads (fetch, read, mutate) of $key. */
function hx_time_reads(array $b, array $w, string $key, int $ops): int
{
    [$fetch, $read, $mutate] = [$b['fetch'], $w['read'], $w['mutate']];
    $gc = $w['gc_off'] && gc_enabled();
    if ($gc) {
        gc_disable();
    }
    $score = 0;
    $t = hrtime(true);
    for ($i = 0; $i < $ops; $i++) {
        $v = $fetch($key);
        $score ^= $read($v, $i);
        if ($mutate !== null) {
            $mutate($v, $i);
        }
    }
    $t = hrtime(true) - $t;
    unset($v);
    if ($gc) {
        gc_enable();
    }
    if ($score === PHP_INT_MIN) {
        echo '';   // keeps $score live
    }
    return $t;
}

/** Nanoseconds for $ops stores of $value over the write keys, after a clear. */
function hx_time_writes(array $b, string $key, mixed $value, int $ops): int
{
    $store = $b['store'];
    ($b['clear'])();
    $t = hrtime(true);
    for ($i = 0; $i < $ops; $i++) {
        $store($key . '.' . $i % HX_WRITE_KEYS, $value);
    }
    return hrtime(true) - $t;
}

/** How many operations make a sample of about $ms milliseconds. */
function hx_calibrate(callable $time, float $ms): int
{
    for ($n = 1; ; $n *= 4) {
        $ns = $time($n);
        if ($ns >= 2e6 || $n >= HX_MAX_OPS) {
            return (int)max(1, min(HX_MAX_OPS, ceil($ms * 1e6 * $n / max($ns, 1))));
        }
    }
}

function hx_check(array $w, mixed $v, string $expected, string $what): void
{
    try {
        $got = ($w['check'])($v);
    } catch (Throwable $e) {
        throw new HxWrongValue("$what: the value read back fails its check: {$e->getMessage()}");
    }
    if ($got !== $expected) {
        throw new HxWrongValue("$what: the value read back differs: expected '$expected', got '$got'");
    }
}

function hx_worker(array $o): int
{
    require_once __DIR__ . '/workloads.php';
    if (is_file('/usr/share/php/Carbon/autoload.php')) {
        require_once '/usr/share/php/Carbon/autoload.php';
    }
    $w = hx_workloads()[$o['case']] ?? throw new RuntimeException("unknown workload {$o['case']}");
    $b = hx_backend($o['worker']);
    $value = ($w['build'])();
    $expected = ($w['check'])($value);
    try {
        $result = hx_measure($o, $w, $b, $value, $expected);
    } catch (HxWrongValue $e) {
        // The harness's rule: a backend that does not give the value back
        // has no time for the workload (APCu on PHP 8.2 loses SplHeap's
        // contents, which serialize() does not write).
        $result = ['failed' => $e->getMessage()];
    }
    echo json_encode($result);
    return 0;
}

final class HxWrongValue extends RuntimeException {}

function hx_measure(array $o, array $w, array $b, mixed $value, string $expected): array
{
    $samples = (int)($o['samples'] ?? 5);
    $ms = (float)($o['sample-ms'] ?? 20);
    $per_op = [];
    // Keys as long as the harness's (hashing them is part of every operation).
    $key = sprintf('user_cache_benchmark.user-cache-benchmark-1.%s.%s.%s', $o['mode'],
        $o['worker'] === 'user_cache_copy' ? 'user_cache' : $o['worker'], $o['case']);
    if ($o['mode'] === 'read') {
        ($b['clear'])();
        ($b['store'])($key, $value);
        hx_check($w, ($b['fetch'])($key), $expected, 'after store');
        $time = fn (int $n) => hx_time_reads($b, $w, $key, $n);
    } else {
        $time = fn (int $n) => hx_time_writes($b, $key, $value, $n);
    }
    if (isset($o['count'])) {
        // bench/harness/instructions.php: one untimed loop, under callgrind.
        $time((int)$o['count']);
        return ['count' => (int)$o['count']];
    }
    $ops = hx_calibrate($time, $ms);
    $time($ops);   // warm-up sample
    for ($s = 0; $s < $samples; $s++) {
        $per_op[] = $time($ops) / $ops;
        if ($o['mode'] === 'read') {
            hx_check($w, ($b['fetch'])($key), $expected, 'after a read sample');
        }
    }
    if ($o['mode'] === 'write') {
        for ($k = 0; $k < min($ops, HX_WRITE_KEYS); $k++) {
            hx_check($w, ($b['fetch'])("$key.$k"), $expected, "write key $k");
        }
    }
    return ['ns' => hx_median($per_op), 'ops' => $ops];
}

/* ---- driver ------------------------------------------------------------------ */

function hx_median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

function hx_geomean(array $xs): float
{
    return exp(array_sum(array_map('log', $xs)) / count($xs));
}

/* The harness's settings: OPcache on for the CLI with the JIT off, 64M of
 * cache, no memory limit; Resident as it ships (no resident.direct_classes). */
function hx_php_args(string $backend, string $ext): array
{
    $dir = PHP_EXTENSION_DIR;
    $common = ['-n', '-d', 'memory_limit=-1', '-d', "extension=$dir/mbstring.so",
        '-d', "zend_extension=$dir/opcache.so", '-d', 'opcache.enable=1', '-d', 'opcache.enable_cli=1', '-d', 'opcache.jit=disable',
        '-d', 'error_reporting=' . (E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED)];
    $resident = ['-d', "extension=$ext", '-d', 'user_cache.enable_cli=1', '-d', 'user_cache.shm_size=64M'];
    $apcu = ['-d', "extension=$dir/apcu.so", '-d', 'apc.enable_cli=1', '-d', 'apc.shm_size=64M'];
    return match ($backend) {
        // Borrowing is what every php-fpm request does; `auto`, the default, copies in the CLI.
        'user_cache' => [...$common, ...$resident, '-d', 'resident.zero_copy=1'],
        'user_cache_copy' => [...$common, ...$resident, '-d', 'resident.zero_copy=auto'],
        'apcu' => [...$common, ...$apcu, '-d', 'apc.serializer=php'],
        'none' => $common,
        'apcu_igbinary' => [...$common, '-d', "extension=$dir/igbinary.so", ...$apcu, '-d', 'apc.serializer=igbinary'],
    };
}

function hx_fmt_us(float $ns): string
{
    $us = $ns / 1000;
    return $us >= 100 ? number_format($us, 0) : ($us >= 10 ? sprintf('%.1f', $us) : sprintf('%.2f', $us));
}

function hx_fmt_x(float $x): string
{
    return $x < 0.1 ? sprintf('%.3fx', $x) : sprintf('%.2fx', $x);
}

/** One worker's run (a fresh process), its JSON result; null, said on stderr, if it failed. */
function hx_run_worker(string $backend, string $case, string $mode, string $ext, array $worker_opts): ?array
{
    $cmd = [PHP_BINARY, ...hx_php_args($backend, $ext), __DIR__ . '/run.php', "--worker=$backend", "--case=$case", "--mode=$mode", ...$worker_opts];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $json = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    if (proc_close($proc) !== 0 || !is_array($res = json_decode($json, true))) {
        fprintf(STDERR, "\n%s %s under %s failed:\n%s%s\n", $mode, $case, $backend, $json, $err);
        return null;
    }
    return $res;
}

function hx_driver(array $o): int
{
    $rounds = (int)($o['rounds'] ?? 5);
    $ext = $o['ext'] ?? dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so';
    $out = $o['out'] ?? null;
    require_once __DIR__ . '/workloads.php';
    $cases = isset($o['cases']) ? explode(',', $o['cases']) : array_keys(hx_workloads());
    $worker_opts = ['--samples=' . ($o['samples'] ?? 5), '--sample-ms=' . ($o['sample-ms'] ?? 20)];
    $started = time();
    $ns = [];   // [mode][case][backend][round]
    $failed = [];   // [mode][case][backend] => why
    for ($r = 0; $r < $rounds; $r++) {
        foreach (['write', 'read'] as $mode) {
            fprintf(STDERR, "round %d/%d, %s:", $r + 1, $rounds, $mode);
            foreach ($cases as $c => $case) {
                $k = ($r + $c) % count(HX_BACKENDS);
                foreach ([...array_slice(HX_BACKENDS, $k), ...array_slice(HX_BACKENDS, 0, $k)] as $backend) {
                    $res = hx_run_worker($backend, $case, $mode, $ext, $worker_opts);
                    if ($res === null) {
                        return 1;
                    }
                    if (isset($res['failed'])) {
                        $failed[$mode][$case][$backend] = $res['failed'];
                    } else {
                        $ns[$mode][$case][$backend][$r] = $res['ns'];
                    }
                }
                fprintf(STDERR, '.');
            }
            fprintf(STDERR, "\n");
        }
    }

    $md = hx_report($ns, $failed, $cases, [
        sprintf('Run: %s UTC, %d min, %s, PHP %s, %d rounds of %s samples of about %s ms per workload, backend and mode;',
            gmdate('Y-m-d H:i', $started), (int)round((time() - $started) / 60), php_uname('n'), PHP_VERSION, $rounds,
            $o['samples'] ?? 5, $o['sample-ms'] ?? 20),
        'a fresh process for each (OPcache on, JIT off, as the harness runs).',
    ]);
    echo $md;
    if ($out !== null) {
        file_put_contents($out, $md);
    }
    return 0;
}

/**
 * Ratios (Resident's time / the other's: below 1, Resident is faster), wins,
 * geomeans and the goals, as Markdown.
 */
function hx_report(array $ns, array $failed, array $cases, array $run): string
{
    $ratio = fn (string $m, string $c, string $mine, string $theirs) => hx_median(array_map(fn ($x, $y) => $x / $y,
        $ns[$m][$c][$mine], $ns[$m][$c][$theirs]));
    $lines = ['# The ext-user_cache proposal\'s benchmark (issue 26, Done-when 1)', '',
        'Command: `make bench` (`php8.2 -n bench/harness/run.php`): the 28 workloads and the method of',
        '[colopl/php-user_cache_benchmark_harness](https://github.com/colopl/php-user_cache_benchmark_harness),',
        'reimplemented in `bench/harness/` (bench/README.md says what differs).', '',
        ...$run,
        'Times: µs per operation, the median over rounds of each worker\'s median sample. Ratios: Resident\'s time / the other\'s',
        '(below 1: Resident is faster), the median over rounds of each round\'s ratio. Resident runs with no `resident.direct_classes`,',
        'borrowing (`resident.zero_copy=1`, what a php-fpm request does; the goals are judged on it) and copying',
        '(`resident.zero_copy=auto`, what the harness\'s CLI run gets). A read fetches the same key again and again in one request,',
        'as the harness does.'];
    $judged = [];
    $notes = [];
    $modes = ['read' => 'Reads: fetch, then read a few fields of the value', 'write' => 'Writes: store under 32 keys in turn'];
    foreach ($modes as $mode => $title) {
        if (!isset($ns[$mode]) && !isset($failed[$mode])) {
            continue;
        }
        $lines[] = '';
        $lines[] = "## $title";
        $lines[] = '';
        $lines[] = '| workload | Resident borrowing µs | Resident copying µs | APCu µs | APCu+igbinary µs | borrowing vs APCu | vs APCu+igbinary | copying vs APCu | vs APCu+igbinary |';
        $lines[] = '|---|---:|---:|---:|---:|---:|---:|---:|---:|';
        $rs = [];
        $wins = [];
        $lost = [];
        foreach ($cases as $case) {
            $cell = [];
            foreach (HX_BACKENDS as $b) {
                $cell[] = isset($failed[$mode][$case][$b]) ? 'fails' : hx_fmt_us(hx_median($ns[$mode][$case][$b]));
            }
            foreach (['user_cache', 'user_cache_copy'] as $mine) {
                foreach (['apcu', 'apcu_igbinary'] as $theirs) {
                    $wins[$mine][$theirs] ??= 0;
                    if (isset($failed[$mode][$case][$mine])) {
                        $cell[] = '**loss** (fails)';
                        $lost[$mine][$theirs][] = $case;
                    } elseif (isset($failed[$mode][$case][$theirs])) {
                        // No time to compare with: the harness counts it a failure of that backend; left out of the geomean.
                        $cell[] = 'it fails';
                    } else {
                        $v = $rs[$mine][$theirs][$case] = $ratio($mode, $case, $mine, $theirs);
                        $wins[$mine][$theirs] += $v < 1 ? 1 : 0;
                        $cell[] = hx_fmt_x($v) . ($v >= 1 ? ' **loss**' : '');
                    }
                }
            }
            $lines[] = "| `$case` | " . implode(' | ', $cell) . ' |';
        }
        $g = [];
        $geo = ['**geomean**', '', '', '', ''];
        $won = ['wins (of workloads with both times)', '', '', '', ''];
        foreach (['user_cache', 'user_cache_copy'] as $mine) {
            foreach (['apcu', 'apcu_igbinary'] as $theirs) {
                $r = $rs[$mine][$theirs] ?? [];
                $g[$mine][$theirs] = $r ? hx_geomean($r) : NAN;
                $geo[] = '**' . hx_fmt_x($g[$mine][$theirs]) . '**';
                $won[] = sprintf('%d/%d', $wins[$mine][$theirs], count($r) + count($lost[$mine][$theirs] ?? []));
            }
        }
        $lines[] = '| ' . implode(' | ', $geo) . ' |';
        $lines[] = '| ' . implode(' | ', $won) . ' |';
        foreach ($failed[$mode] ?? [] as $case => $why) {
            foreach ($why as $b => $text) {
                $notes[] = sprintf('- %s `%s` under %s: %s', $mode, $case, HX_LABELS[$b], $text);
            }
        }
        $judged[$mode] = [$g, $wins, $rs, $lost];
    }
    if ($notes) {
        $lines[] = '';
        $lines[] = 'Failures (the value read back is not the value stored; no time, as in the harness):';
        $lines[] = '';
        array_push($lines, ...$notes);
    }

    $goals = [];
    foreach (['user_cache' => 'borrowing', 'user_cache_copy' => 'copying (information, not the goal)'] as $mine => $how) {
        $goals[] = [$how, null];
        if (isset($judged['read'])) {
            [$g, $wins, $rs, $lost] = $judged['read'];
            $n = fn ($t) => count($rs[$mine][$t] ?? []) + count($lost[$mine][$t] ?? []);
            $goals[] = [sprintf('reads win every workload against both APCu variants: %d/%d against APCu, %d/%d against APCu+igbinary',
                $wins[$mine]['apcu'], $n('apcu'), $wins[$mine]['apcu_igbinary'], $n('apcu_igbinary')),
                $wins[$mine]['apcu'] === $n('apcu') && $wins[$mine]['apcu_igbinary'] === $n('apcu_igbinary')];
            $goals[] = [sprintf('reads geomean at most 0.04x APCu: %s', hx_fmt_x($g[$mine]['apcu'])), $g[$mine]['apcu'] <= 0.04];
            $goals[] = [sprintf('reads geomean at most 0.06x APCu+igbinary: %s', hx_fmt_x($g[$mine]['apcu_igbinary'])), $g[$mine]['apcu_igbinary'] <= 0.06];
        }
        if (isset($judged['write'])) {
            [$g, , $rs, $lost] = $judged['write'];
            $r = $rs[$mine]['apcu_igbinary'] ?? [];
            $over = array_filter($r, fn ($v) => $v > 1.5);
            arsort($over);
            $goals[] = [sprintf('writes geomean at most 0.7x APCu+igbinary: %s (against APCu: %s)',
                hx_fmt_x($g[$mine]['apcu_igbinary']), hx_fmt_x($g[$mine]['apcu'])), $g[$mine]['apcu_igbinary'] <= 0.7];
            $goals[] = [sprintf('no write above 1.5x APCu+igbinary: %d above%s', count($over) + count($lost[$mine]['apcu_igbinary'] ?? []),
                $over ? ' (' . implode(', ', array_map(fn ($c, $v) => "`$c` " . hx_fmt_x($v), array_keys($over), $over)) . ')' : ''),
                $over === [] && empty($lost[$mine]['apcu_igbinary'])];
        }
    }
    if (count($cases) !== 28) {
        $goals[] = ['only ' . count($cases) . ' of the 28 workloads ran (--cases): the goals are judged on all of them', false];
    }
    $lines[] = '';
    $lines[] = '## Goals (issue 26, Done-when 1)';
    foreach ($goals as [$text, $met]) {
        $lines[] = $met === null ? "\nResident $text:\n" : sprintf('- %s: **%s**', $text, $met ? 'MET' : 'NOT MET');
    }
    return implode("\n", $lines) . "\n";
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') !== __FILE__) {
    return;   // included by bench/harness/instructions.php for its helpers
}
$o = [];
foreach (array_slice($argv, 1) as $a) {
    if (!preg_match('/^--([a-z-]+)=(.*)$/', $a, $m)) {
        fprintf(STDERR, "usage: %s [--rounds=N] [--samples=N] [--sample-ms=MS] [--cases=a,b] [--ext=resident.so] [--out=FILE]\n", $argv[0]);
        exit(2);
    }
    $o[$m[1]] = $m[2];
}
exit(isset($o['worker']) ? hx_worker($o) : hx_driver($o));
