<?php
/*
 * The floor of the harness's reads (bench/harness/run.php): each read
 * workload's loop with no cache at all (the "none" backend hands back the
 * value it was given, kept in a PHP array), timed as the harness times a
 * read, beside Resident borrowing and the two APCu backends, interleaved
 * in the same rounds. floor / APCu is the best ratio any cache could have
 * on that workload: the reads of the value after each fetch cost the same
 * whatever fetched it. Its geomean says how far the goals of issue 26
 * (Done-when 1) are from what the workloads themselves allow.
 *
 *   php8.2 -n bench/harness/floor.php [--rounds=3] [--out=bench/results/harness-floor-latest.md]
 */

declare(strict_types=1);

require __DIR__ . '/run.php';

const HX_FLOOR_BACKENDS = ['none', 'user_cache', 'apcu', 'apcu_igbinary'];

$o = ['rounds' => 3, 'out' => dirname(__DIR__) . '/results/harness-floor-latest.md',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
foreach (array_slice($argv, 1) as $a) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $a, $m)) {
        $o[$m[1]] = $m[2];
    }
}
require_once __DIR__ . '/workloads.php';
$cases = array_keys(hx_workloads());
$started = time();
$ns = [];
for ($r = 0; $r < (int)$o['rounds']; $r++) {
    fprintf(STDERR, "round %d/%d:", $r + 1, $o['rounds']);
    foreach ($cases as $c => $case) {
        $k = ($r + $c) % count(HX_FLOOR_BACKENDS);
        foreach ([...array_slice(HX_FLOOR_BACKENDS, $k), ...array_slice(HX_FLOOR_BACKENDS, 0, $k)] as $backend) {
            $res = hx_run_worker($backend, $case, 'read', $o['ext'], ['--samples=5', '--sample-ms=20']);
            if ($res === null) {
                exit(1);
            }
            if (isset($res['ns'])) {
                $ns[$case][$backend][$r] = $res['ns'];
            }
        }
        fprintf(STDERR, '.');
    }
    fprintf(STDERR, "\n");
}

$lines = ['# The floor of the harness\'s reads (issue 26, Done-when 1)', '',
    sprintf('Command: `make bench` (`php8.2 -n bench/harness/floor.php`). Run: %s UTC, %d min, %s, PHP %s, %d rounds, each backend\'s worker '
        . 'as in bench/harness/run.php (a fresh process, OPcache on, JIT off; median of 5 samples of about 20 ms).',
        gmdate('Y-m-d H:i', $started), (int)round((time() - $started) / 60), php_uname('n'), PHP_VERSION, $o['rounds']),
    'No cache: the value kept in a PHP array and handed back as it is, so a read is the workload\'s own loop and reads of the value. '
        . 'Ratios: the median over rounds of each round\'s ratio; a workload a backend fails has none and is left out of the geomeans (APCu and '
        . '`spl_heap_object` on PHP 8.2; no cache and `metadata_object_fetch_mutate`, whose value changed by the workload is the stored one).',
    '',
    '| workload | no cache µs | Resident borrowing µs | APCu µs | APCu+igbinary µs | no cache vs APCu | vs APCu+igbinary | Resident vs APCu | vs APCu+igbinary |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
$ratio = fn (string $case, string $mine, string $theirs) => hx_median(array_map(fn ($x, $y) => $x / $y, $ns[$case][$mine], $ns[$case][$theirs]));
$g = [];
foreach ($cases as $case) {
    $by = $ns[$case] ?? [];
    $missing = array_filter(HX_FLOOR_BACKENDS, fn ($b) => count($by[$b] ?? []) !== (int)$o['rounds']);
    if ($missing) {
        // APCu loses spl_heap_object's contents on PHP 8.2; the value
        // "none" hands back is the one a mutating workload changed, which
        // the harness's check after each sample then refuses.
        $lines[] = "| `$case` | " . implode(' | ', array_map(fn ($b) => isset($missing[array_search($b, HX_FLOOR_BACKENDS, true)])
            ? 'fails' : hx_fmt_us(hx_median($by[$b])), HX_FLOOR_BACKENDS)) . ' | | | | |';
        continue;
    }
    $row = [];
    foreach ([['none', 'apcu'], ['none', 'apcu_igbinary'], ['user_cache', 'apcu'], ['user_cache', 'apcu_igbinary']] as [$mine, $theirs]) {
        $x = $ratio($case, $mine, $theirs);
        $g["$mine/$theirs"][] = $x;
        $row[] = hx_fmt_x($x);
    }
    $lines[] = "| `$case` | " . implode(' | ', array_map(fn ($b) => hx_fmt_us(hx_median($by[$b])), HX_FLOOR_BACKENDS)) . ' | ' . implode(' | ', $row) . ' |';
}
$gm = fn (string $pair) => hx_fmt_x(hx_geomean($g[$pair]));
$lines[] = sprintf('| **geomean** (%d workloads) | | | | | **%s** | **%s** | **%s** | **%s** |', count($g['none/apcu']),
    $gm('none/apcu'), $gm('none/apcu_igbinary'), $gm('user_cache/apcu'), $gm('user_cache/apcu_igbinary'));
$lines[] = '';
$lines[] = sprintf('Issue 26 asks for reads at most 0.04x APCu and 0.06x APCu+igbinary; with no cache at all the workloads read at %s and %s.',
    $gm('none/apcu'), $gm('none/apcu_igbinary'));
$md = implode("\n", $lines) . "\n";
file_put_contents($o['out'], $md);
echo $md;
