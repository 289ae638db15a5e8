<?php
/*
 * Instructions per operation (callgrind) for some of the harness's
 * workloads (bench/harness/run.php): what the shared 2-core VM's timing
 * noise does not move. Each backend's worker runs one untimed loop of
 * LOW and of HIGH operations under callgrind; (Ir(HIGH) - Ir(LOW)) /
 * (HIGH - LOW) is one operation (startup, building the value and the first
 * stores cancel out). Both counts are above the 32 write keys, so a write
 * is a store that replaces an earlier one, as in most of the timed loop.
 *
 *   php8.2 -n bench/harness/instructions.php [--reads=a,b] [--writes=a,b] [--out=FILE]
 *
 * The default workloads are those that lose, or nearly, in
 * bench/results/harness-latest.md.
 */

declare(strict_types=1);

require __DIR__ . '/run.php';

const HX_LOW = 40;
const HX_HIGH = 140;
const HX_COUNTED = ['user_cache' => 'Resident borrowing', 'apcu' => 'APCu', 'apcu_igbinary' => 'APCu+igbinary'];

function hx_instructions(string $backend, string $case, string $mode, int $ops, string $ext, string $tmp): int
{
    $file = "$tmp/callgrind.out";
    $cmd = ['/usr/bin/valgrind', '--tool=callgrind', "--callgrind-out-file=$file", PHP_BINARY, ...hx_php_args($backend, $ext),
        __DIR__ . '/run.php', "--worker=$backend", "--case=$case", "--mode=$mode", "--count=$ops"];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $json = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $res = json_decode($json, true);
    if (proc_close($proc) !== 0 || !isset($res['count'])) {
        throw new RuntimeException("$mode $case under $backend failed:\n$json" . substr($err, -2000));
    }
    preg_match('/^(?:summary|totals): (\d+)/m', (string)file_get_contents($file), $m) || throw new RuntimeException("no total in $file");
    unlink($file);
    return (int)$m[1];
}

$o = [];
foreach (array_slice($argv, 1) as $a) {
    preg_match('/^--([a-z]+)=(.*)$/', $a, $m) || exit(fprintf(STDERR, "usage: %s [--reads=a,b] [--writes=a,b] [--out=FILE]\n", $argv[0]) ? 2 : 2);
    $o[$m[1]] = $m[2];
}
$selected = [
    'read' => explode(',', $o['reads'] ?? 'carbon_datetime_object,reference_assignment_object,cycle_assignment_object,sleep_wakeup_entity_collection,recursive_reference_graph,spl_linked_collection_object'),
    'write' => explode(',', $o['writes'] ?? 'sleep_wakeup_entity_collection,recursive_reference_graph,spl_collection_object,sleep_wakeup_large_dataset,serialize_magic_entity,mixed_serialization_payload,reference_assignment_object,constant_array,carbon_datetime_object'),
];
$ext = $o['ext'] ?? dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so';
$tmp = sys_get_temp_dir() . '/resident-harness-ir-' . getmypid();
mkdir($tmp, 0700);
$started = time();
$lines = ['# Instructions per operation for some of the harness\'s workloads (callgrind)', '',
    'Command: `make bench` (`php8.2 -n bench/harness/instructions.php`); the workloads of `bench/harness/run.php`',
    '([`harness-latest.md`](harness-latest.md) has their times), each backend\'s worker under callgrind:',
    sprintf('(Ir(%d operations) - Ir(%d)) / %d. Resident borrowing (`resident.zero_copy=1`), no `resident.direct_classes`.', HX_HIGH, HX_LOW, HX_HIGH - HX_LOW),
    '', sprintf('Run: %s UTC, PHP %s, %s.', gmdate('Y-m-d H:i', $started), PHP_VERSION, php_uname('n')), '',
    '| mode | workload | Resident | APCu | APCu+igbinary | vs APCu | vs APCu+igbinary |', '|---|---|---:|---:|---:|---:|---:|'];
foreach ($selected as $mode => $cases) {
    foreach ($cases as $case) {
        $per = [];
        foreach (array_keys(HX_COUNTED) as $backend) {
            fprintf(STDERR, "%s %s %s\n", $mode, $case, $backend);
            $per[$backend] = (hx_instructions($backend, $case, $mode, HX_HIGH, $ext, $tmp)
                - hx_instructions($backend, $case, $mode, HX_LOW, $ext, $tmp)) / (HX_HIGH - HX_LOW);
        }
        $x = fn (string $b) => hx_fmt_x($per['user_cache'] / $per[$b]) . ($per['user_cache'] >= $per[$b] ? ' **more**' : '');
        $lines[] = sprintf('| %s | `%s` | %s | %s | %s | %s | %s |', $mode, $case, number_format($per['user_cache']),
            number_format($per['apcu']), number_format($per['apcu_igbinary']), $x('apcu'), $x('apcu_igbinary'));
    }
}
rmdir($tmp);
$md = implode("\n", $lines) . "\n";
echo $md;
if (isset($o['out'])) {
    file_put_contents($o['out'], $md);
}
