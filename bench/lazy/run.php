<?php
/*
 * Issue 25, Done-when 1: fetching a kept 45-object app (bench/lazy/app.php,
 * shaped like the booted Slim 4 skeleton) and touching the 10 objects that
 * serving "/" uses, eagerly (Cache::fetch() builds every object) and lazily
 * (resident.lazy_objects=1: objects are shells filled when first used), in
 * a request that borrows (php-cgi, as php-fpm: values stay mapped until the
 * request ends), OPcache on.
 *
 * Instructions (callgrind on `php-cgi -T N`): (Ir(N=22) - Ir(N=2)) / 20 per
 * mode, less the same for a request that fetches nothing ("none"), so what
 * is left is the fetch, what follows from it and its release at the
 * request's end; deterministic, the figure that does not move with the
 * machine's load. Serving "/" runs the app's own code too (method calls,
 * two Response objects), which an eager and a lazy fetch pay alike: the
 * modes that fetch only measure it (use = eager - eager fetch only), and
 * "fetch and touch" is a mode's cost less that use, the figure Done-when 1
 * compares with the eager fetch. Time: hrtime() around fetch and use
 * inside each request, median over the requests of interleaved rounds
 * (noisy on a shared VM).
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

function cgi(array $opts, string $mode, int $requests, ?string $callgrindOut = null, bool $count = false): array
{
    $args = ['-n', '-d', 'zend_extension=opcache.so', '-d', 'opcache.enable=1', '-d', 'memory_limit=256M',
        '-d', "extension={$opts['ext']}", '-d', 'resident.lazy_objects=' . (str_starts_with($mode, 'lazy') ? 1 : 0), '-q', '-T', (string)$requests, $GLOBALS['dir'] . '/request.php'];
    $cmd = array_merge($callgrindOut ? ['/usr/bin/valgrind', '--tool=callgrind', "--callgrind-out-file=$callgrindOut"] : [], [$opts['cgi']], $args);
    // Every mode's name as long as the longest: getenv() copies it into
    // request memory, and names of other lengths took other allocator
    // bins, whose first use in a request (a page set up) counted about
    // 1,300 instructions to some modes and not to others.
    $env = ['LAZY_BENCH_MODE' => str_pad($mode, 12, '_')] + ($count ? ['LAZY_BENCH_COUNT' => '1'] : []);
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    proc_close($proc);
    preg_match_all('/^ok Hello world! \(App\\\\Actions\\\\Hello\) (\d+)$/m', $out, $m);
    if (count($m[1]) !== $requests) {
        fwrite(STDERR, "the run failed ($mode): " . implode(' ', $cmd) . "\n$out$err\n");
        exit(1);
    }
    if ($count) {
        // The last request's: shells made, shells filled.
        preg_match_all('/^objects (\d+) (\d+)$/m', $out, $c);
        return [(int)end($c[1]), (int)end($c[2])];
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

$modes = ['none', 'eager', 'lazy', 'eager-fetch', 'lazy-fetch'];
$ir = [];
foreach ($modes as $mode) {
    $ir[$mode] = (instructions($opts, $mode, 22) - instructions($opts, $mode, 2)) / 20;
}
// Objects a lazy request makes as shells and fills (the eager one makes
// all 45 whole), counted in runs of their own.
$objects = ['lazy' => cgi($opts, 'lazy', 3, null, true), 'lazy-fetch' => cgi($opts, 'lazy-fetch', 3, null, true)];
$ns = array_fill_keys($modes, []);
for ($r = 0; $r < (int)$opts['rounds']; $r++) {
    foreach ($r % 2 ? array_reverse($modes) : $modes as $mode) {
        // The first request stores the app: not counted.
        array_push($ns[$mode], ...array_slice(cgi($opts, $mode, (int)$opts['requests']), 1));
    }
}

$cost = fn (string $mode) => $ir[$mode] - $ir['none'];
$use = $cost('eager') - $cost('eager-fetch');
$touch = ['eager' => $cost('eager') - $use, 'lazy' => $cost('lazy') - $use];
$us = fn (string $mode) => median($ns[$mode]) / 1e3;
$date = gmdate('Y-m-d H:i');
$n = sprintf('%d requests in %d interleaved rounds', ((int)$opts['requests'] - 1) * (int)$opts['rounds'], (int)$opts['rounds']);
$lines = [
    "# A kept 45-object app: eager vs lazy fetch ($date UTC)",
    '',
    'bench/lazy/run.php: php-cgi -T (borrowing, as php-fpm), OPcache on (no preload, no JIT), PHP ' . PHP_VERSION . '. Each request fetches the app '
        . 'stored by the first; the "fetch and use" modes then serve "/" with it, which uses 10 of its 45 objects, the "fetch only" modes use nothing. '
        . 'Instructions: callgrind, (Ir(22 requests) - Ir(2)) / 20, less a request that fetches nothing (' . number_format($ir['none']) . ' instructions). '
        . "Time: hrtime() around the fetch and the use (not the release at the request's end), median of $n.",
    '',
    'What each column includes:',
    '',
    "- **fetch only**: `fetch()`, and the release of what it made at the request's end; nothing used (lazy: the root's shell only).",
    "- **fetch and use**: the same, plus serving \"/\": the app's own code (about " . number_format($use) . ' instructions, measured as eager fetch and use less eager fetch only, paid by both modes alike) '
        . 'and, lazily, filling the 10 objects it uses and making shells of the objects they hold.',
    "- **fetch and touch**: fetch and use less the app's own code: what Done-when 1 compares (eager: the fetch only).",
    '',
    '| fetch | fetch only, instructions | fetch and use, instructions | fetch and touch, instructions | fetch and touch vs eager | fetch and use vs eager | fetch only, median µs | fetch and use, median µs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
];
foreach (['eager' => 'eager (`Cache::fetch()`)', 'lazy' => 'lazy (`resident.lazy_objects=1`)'] as $mode => $name) {
    $lines[] = sprintf('| %s | %s | %s | %s | %.2fx | %.2fx | %.1f | %.1f |', $name, number_format($cost("$mode-fetch")), number_format($cost($mode)),
        number_format($touch[$mode]), $touch[$mode] / $touch['eager'], $cost($mode) / $cost('eager'), $us("$mode-fetch"), $us($mode));
}
$ratio = $touch['lazy'] / $touch['eager'];
$lines[] = '';
$perObject = $touch['eager'] / 45;
[$made, $filled] = $objects['lazy'];
$lines[] = sprintf('Objects made: eager 45, whole; lazy fetch only %d shell(s), %d filled; lazy fetch and use %d shells, %d of them filled (serving "/" reads 10 objects; '
    . 'reading a property that holds an object makes that object\'s shell). An eager fetch costs %s instructions per object it makes (fetch and touch / 45, its fixed costs included); '
    . 'the lazy fetch and touch, %s per shell it makes (%s less the fetch only, over the %d shells beyond the root\'s).',
    $objects['lazy-fetch'][0], $objects['lazy-fetch'][1], $made, $filled, number_format($perObject), number_format(($touch['lazy'] - $cost('lazy-fetch')) / max(1, $made - 1)),
    number_format($touch['lazy']), $made - 1);
$lines[] = '';
$lines[] = sprintf('Lazy / eager, fetch and touch: %.2fx (goal, issue 25: at most 0.3x): %s. Fetch and use, the app\'s own code included: %.2fx.',
    $ratio, $ratio <= 0.3 ? 'met' : 'NOT MET', $cost('lazy') / $cost('eager'));
file_put_contents($opts['out'], implode("\n", $lines) . "\n");
echo implode("\n", $lines), "\n";
