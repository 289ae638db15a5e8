<?php
/*
 * Hash flooding: 16,384 keys that all collide under PHP's string hash
 * (DJBX33A; every key is a string of "Ez"/"FY" blocks) against 16,384
 * random keys of the same length, stored and fetched in one request, in
 * borrow mode (a php-fpm request: fetches remember entries in a
 * request-local table) and copy mode (the CLI). Rounds interleave the two
 * key sets, each in a fresh process; medians and the flood/random ratio,
 * and the instructions inside Resident's methods (callgrind), which do not
 * move with the machine's load. tests/reliability/hash_flood.php holds the
 * same bound (2x) on instructions.
 *
 *   php8.2 -n bench/flood.php [--rounds=7] [--keys=16384] [--out=bench/results/flood-latest.md]
 */

$opts = getopt('', ['rounds:', 'keys:', 'out:', 'child:', 'ext:']);
$root = dirname(__DIR__);
$ext = $opts['ext'] ?? "$root/build/php-8.2/modules/resident.so";
$n = (int)($opts['keys'] ?? 16384);

if (isset($opts['child'])) {
    // One request: store and fetch every key once; prints the nanoseconds.
    [$set, $kind] = explode(',', $opts['child']);
    $blocks = (int)ceil(log($n, 2));
    mt_srand(42);
    $alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    $keys = [];
    for ($i = 0; $i < $n; $i++) {
        $k = '';
        for ($b = 0; $b < $blocks; $b++) {
            $k .= $set === 'flood' ? (($i >> $b) & 1 ? 'FY' : 'Ez') : $alphabet[mt_rand(0, 61)] . $alphabet[mt_rand(0, 61)];
        }
        $keys[] = $k;
    }
    if ($kind === 'literal') {
        // As string literals of compiled code, which PHP interns.
        $file = tempnam(sys_get_temp_dir(), 'keys');
        file_put_contents($file, '<?php return ' . var_export($keys, true) . ';');
        $keys = require $file;
        unlink($file);
    }
    $c = Resident\Cache::pool('flood');
    $t = hrtime(true);
    foreach ($keys as $i => $k) {
        $c->store($k, $i);
    }
    foreach ($keys as $i => $k) {
        if ($c->fetch($k) !== $i) {
            exit("wrong value for key $i\n");
        }
    }
    echo hrtime(true) - $t, "\n";
    exit(0);
}

$rounds = (int)($opts['rounds'] ?? 7);
$out = $opts['out'] ?? "$root/bench/results/flood-latest.md";

function child_cmd(string $ext, string $mode, string $set, string $kind, int $n): array
{
    return [PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'resident.enable_cli=1', '-d', "resident.zero_copy=$mode",
        '-d', 'resident.memory=64M', __FILE__, "--child=$set,$kind", "--keys=$n", "--ext=$ext"];
}

function run(array $cmd): string
{
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $stdout = stream_get_contents($pipes[1]);
    $stderr = stream_get_contents($pipes[2]);
    if (proc_close($proc) !== 0) {
        fwrite(STDERR, "failed: " . implode(' ', $cmd) . "\n$stdout$stderr");
        exit(1);
    }
    return $stdout;
}

function median(array $v): float
{
    sort($v);
    $m = intdiv(count($v), 2);
    return count($v) % 2 ? $v[$m] : ($v[$m - 1] + $v[$m]) / 2;
}

$cases = [];
foreach (['1' => 'borrow', '0' => 'copy'] as $mode => $modeName) {
    foreach (['literal' => 'keys as literals (interned)', 'built' => 'keys built at run time'] as $kind => $kindName) {
        $cases["$modeName, $kindName"] = [(string)$mode, $kind];
    }
}

$ns = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($cases as $name => [$mode, $kind]) {
        // Interleaved: flood and random one after the other, in turn first.
        foreach ($r % 2 ? ['random', 'flood'] : ['flood', 'random'] as $set) {
            $ns[$name][$set][] = (int)run(child_cmd($ext, $mode, $set, $kind, $n));
        }
    }
}

$instructions = [];
foreach ($cases as $name => [$mode, $kind]) {
    foreach (['flood', 'random'] as $set) {
        $file = tempnam(sys_get_temp_dir(), 'cg');
        run(array_merge(['valgrind', '--tool=callgrind', "--callgrind-out-file=$file", '--collect-atstart=no',
            '--toggle-collect=zim_Resident_Cache_*'], child_cmd($ext, $mode, $set, $kind, $n)));
        preg_match('/^summary: (\d+)/m', file_get_contents($file), $m);
        $instructions[$name][$set] = (int)($m[1] ?? 0);
        unlink($file);
    }
}

$date = date('Y-m-d H:i');
$lines = [
    "# Hash flooding: keys colliding under PHP's string hash ($date)",
    '',
    sprintf('%s keys of %d bytes, each stored and fetched once in one request (a fresh `php -n` process per run), '
        . 'colliding under DJBX33A vs random; median of %d interleaved rounds; instructions inside `Resident\\Cache`\'s '
        . 'methods from one callgrind run each. Goal: colliding keys at most 2x random ones.', number_format($n), 2 * (int)ceil(log($n, 2)), $rounds),
    '',
    '| mode | colliding ms | random ms | ratio | colliding instr./key | random instr./key | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
];
$worst = 0;
foreach ($cases as $name => $_) {
    $f = median($ns[$name]['flood']);
    $rnd = median($ns[$name]['random']);
    $fi = $instructions[$name]['flood'];
    $ri = $instructions[$name]['random'];
    $worst = max($worst, $f / $rnd, $fi / max($ri, 1));
    $lines[] = sprintf('| %s | %.1f | %.1f | %.2fx | %.0f | %.0f | %.2fx |', $name, $f / 1e6, $rnd / 1e6, $f / $rnd,
        $fi / $n, $ri / $n, $fi / max($ri, 1));
}
$lines[] = '';
$lines[] = sprintf('Worst ratio: %.2fx (goal: at most 2x): %s.', $worst, $worst <= 2 ? 'met' : 'NOT MET');
file_put_contents($out, implode("\n", $lines) . "\n");
echo implode("\n", $lines), "\n";
