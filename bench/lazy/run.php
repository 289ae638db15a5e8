<?php
/*
 * Issue 25, Done-when 1: fetching a kept 45-object app (bench/lazy/app.php,
 * shaped like the booted Slim 4 skeleton) and serving "/" with it, which
 * touches 10 of its objects, eagerly (Cache::fetch() builds every object)
 * and lazily (resident.lazy_objects=1: objects are shells filled when first
 * used), in a request
 * that borrows (php-cgi, as php-fpm: values stay mapped until the request
 * ends), OPcache on.
 *
 * Instructions (callgrind on `php-cgi -T N`): (Ir(N=22) - Ir(N=2)) / 20 per
 * mode, less the same for a request that fetches nothing ("none"), so what
 * is left is the fetch, the 10 objects' use and their release at the
 * request's end; deterministic, the figure that does not move with the
 * machine's load. Time: hrtime() around fetch and use inside each request,
 * median over the requests of interleaved rounds (noisy on a shared VM).
 *
 *   php8.2 -n bench/lazy/run.php [--rounds=5] [--requests=300] [--out=bench/results/lazy-latest.md]
 */
$opts = getopt('', ['rounds:', 'requests:', 'out:', 'ext:', 'cgi:']) + [
    'rounds' => 5, 'requests' => 300, 'out' => dirname(__DIR__) . '/results/lazy-latest.md',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so', 'cgi' => '/usr/bin/php-cgi8.2'];
foreach (['/usr/bin/valgrind', $opts['cgi'], $opts['ext']] as $need) {
    if (!is_file($need)) {
        fwrite(STDERR, "bench/lazy/run.php needs $need\n");
        exit(1);
    }
}
$dir = sys_get_temp_dir() . '/resident-lazy-bench-' . getmypid();
mkdir($dir, 0700);
register_shutdown_function(function () use ($dir) {
    array_map('unlink', glob("$dir/*"));
    rmdir($dir);
});
foreach (['app.php', 'request.php'] as $file) {
    copy(__DIR__ . "/$file", "$dir/$file");
    // Older than opcache.file_update_protection: cached at once.
    touch("$dir/$file", time() - 10);
}

function cgi(array $opts, string $mode, int $requests, ?string $callgrindOut = null): array
{
    $args = ['-n', '-d', 'zend_extension=opcache.so', '-d', 'opcache.enable=1', '-d', 'memory_limit=256M',
        '-d', "extension={$opts['ext']}", '-d', 'resident.lazy_objects=' . ($mode === 'lazy' ? 1 : 0), '-q', '-T', (string)$requests, $GLOBALS['dir'] . '/request.php'];
    $cmd = array_merge($callgrindOut ? ['/usr/bin/valgrind', '--tool=callgrind', "--callgrind-out-file=$callgrindOut"] : [], [$opts['cgi']], $args);
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['LAZY_BENCH_MODE' => $mode]);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    proc_close($proc);
    preg_match_all('/^ok Hello world! \(App\\\\Actions\\\\Hello\) (\d+)$/m', $out, $m);
    if (count($m[1]) !== $requests) {
        fwrite(STDERR, "the run failed ($mode): " . implode(' ', $cmd) . "\n$out$err\n");
        exit(1);
    }
    return array_map('intval', $m[1]);
}

function instructions(array $opts, string $mode, int $requests): int
{
    $file = $GLOBALS['dir'] . "/callgrind.$mode.$requests";
    cgi($opts, $mode, $requests, $file);
    preg_match('/^(?:summary|totals): (\d+)/m', file_get_contents($file), $m);
    unlink($file);
    return (int)$m[1];
}

function median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

$modes = ['none', 'eager', 'lazy'];
$ir = [];
foreach ($modes as $mode) {
    $ir[$mode] = (instructions($opts, $mode, 22) - instructions($opts, $mode, 2)) / 20;
}
$ns = array_fill_keys($modes, []);
for ($r = 0; $r < (int)$opts['rounds']; $r++) {
    foreach ($r % 2 ? array_reverse($modes) : $modes as $mode) {
        // The first request stores the app: not counted.
        array_push($ns[$mode], ...array_slice(cgi($opts, $mode, (int)$opts['requests']), 1));
    }
}

$eager = $ir['eager'] - $ir['none'];
$lazy = $ir['lazy'] - $ir['none'];
$date = gmdate('Y-m-d H:i');
$lines = [
    "# A kept 45-object app: eager vs lazy fetch ($date UTC)",
    '',
    'bench/lazy/run.php: php-cgi -T (borrowing, as php-fpm), OPcache on, PHP ' . PHP_VERSION . '. Each request fetches the app '
        . 'stored by the first and serves "/" with it (10 of its 45 objects used). Instructions: callgrind, '
        . '(Ir(22 requests) - Ir(2)) / 20, less a request that fetches nothing. Time: hrtime() around fetch and use, '
        . sprintf('median of %d requests in %d interleaved rounds.', ((int)$opts['requests'] - 1) * (int)$opts['rounds'], (int)$opts['rounds']),
    '',
    '| fetch | instructions / request | fetch and use, instructions | vs eager | fetch and use, median µs | vs eager |',
    '|---|---:|---:|---:|---:|---:|',
    sprintf('| nothing fetched (baseline) | %s | | | | |', number_format($ir['none'])),
];
foreach (['eager' => 'eager (`Cache::fetch()` today)', 'lazy' => 'lazy (`resident.lazy_objects=1`)'] as $mode => $name) {
    $cost = $ir[$mode] - $ir['none'];
    $lines[] = sprintf('| %s | %s | %s | %.2fx | %.1f | %.2fx |', $name, number_format($ir[$mode]), number_format($cost),
        $cost / $eager, median($ns[$mode]) / 1e3, median($ns[$mode]) / median($ns['eager']));
}
$ratio = $lazy / $eager;
$lines[] = '';
$lines[] = sprintf('Lazy / eager, instructions: %.2fx (goal, issue 25: at most 0.3x): %s.', $ratio, $ratio <= 0.3 ? 'met' : 'NOT MET');
file_put_contents($opts['out'], implode("\n", $lines) . "\n");
echo implode("\n", $lines), "\n";
