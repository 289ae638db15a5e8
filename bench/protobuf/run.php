<?php
/*
 * The protobuf benchmark (issue #5): protobuf's pure-PHP runtime (Debian's
 * php-google-protobuf) builds its descriptor pool on every request. Two
 * php-fpm masters behind one nginx run the same app, one without and one
 * with its statics kept by RequestOverStatic:
 *   resident.request_over_static_classes="Google\Protobuf\Internal\DescriptorPool,GPBMetadata\*"
 * driven by wrk in the same run, interleaved over rounds.
 *
 *   php8.2 -d extension=posix bench/protobuf/run.php [--duration=S] [--rounds=N]
 *          [--connections=C] [--out=DIR] [--ext=resident.so]
 *
 * Reports requests/s, the median time from script start to the first
 * message (X-First-Message-Us) and of the whole request; writes
 * DIR/protobuf-latest.md.
 */
require dirname(__DIR__) . '/lib/Stack.php';

$opts = ['duration' => 5, 'rounds' => 3, 'connections' => 8, 'out' => dirname(__DIR__) . '/results',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
if (!is_dir('/usr/share/php/Google/Protobuf') || !is_executable('/usr/bin/protoc')) {
    Stack::fail('needs php-google-protobuf and protobuf-compiler (scripts/install-deps.sh installs them)');
}

$stack = new Stack();
$generated = "{$stack->dir}/generated";
mkdir($generated);
Stack::run(sprintf('protoc --proto_path=%s --php_out=%s addressbook.proto', escapeshellarg(__DIR__), escapeshellarg($generated)));

$phpdir = '/usr/lib/php/' . basename(PHP_EXTENSION_DIR);
$ini = ['memory_limit=256M', 'display_errors=stderr', 'log_errors=1', 'extension=ctype.so',
    'zend_extension=opcache.so', 'opcache.enable=1', 'opcache.validate_timestamps=0',
    "extension={$opts['ext']}", 'resident.memory=64M'];
const LISTED = 'Google\Protobuf\Internal\DescriptorPool,GPBMetadata\*';
$modes = [
    'rebuilt' => 'descriptor pool built by every request (Resident loaded, no statics kept)',
    'kept' => 'statics kept: resident.request_over_static_classes="' . LISTED . '"',
    'rebuilt_preloaded' => 'opcache.preload of the runtime and generated classes, pool built by every request',
    'kept_preloaded' => 'opcache.preload, statics kept',
];
// Each mode's ratios are against the mode that builds the pool with the same preloading.
$baseOf = ['rebuilt' => 'rebuilt', 'kept' => 'rebuilt', 'rebuilt_preloaded' => 'rebuilt_preloaded', 'kept_preloaded' => 'rebuilt_preloaded'];
$app = __DIR__ . '/app.php';
$kept = ['resident.request_over_static_classes="' . LISTED . '"'];
// php-fpm's master runs as root here (-R): preloading then needs a user, and root keeps it in the master.
file_put_contents("{$stack->dir}/preload.php", sprintf("<?php\n\$generated = %s;\nrequire %s;\n",
    var_export($generated, true), var_export(__DIR__ . '/preload.php', true)));
$preload = ["opcache.preload={$stack->dir}/preload.php", 'opcache.preload_user=root'];
$env = ['PROTOBUF_GENERATED' => $generated];
$stack->fpm('rebuilt', '/rebuilt', $app, $ini, $env);
$stack->fpm('kept', '/kept', $app, array_merge($ini, $kept), $env);
$stack->fpm('rebuilt_preloaded', '/rebuilt_preloaded', $app, array_merge($ini, $preload), $env);
$stack->fpm('kept_preloaded', '/kept_preloaded', $app, array_merge($ini, $kept, $preload), $env);
$stack->start('/rebuilt', fn (?string $body) => str_starts_with((string)$body, 'ok '));

$expected = trim(substr($stack->get('/rebuilt'), 3));
$results = [];
for ($round = 0; $round < (int)$opts['rounds']; $round++) {
    $order = array_keys($modes);
    if ($round % 2) {
        $order = array_reverse($order);
    }
    foreach ($order as $mode) {
        for ($i = 0; $i < 20; $i++) {
            $body = $stack->get("/$mode");
            if ($body !== "ok $expected\n") {
                Stack::fail("/$mode answered " . var_export($body, true) . "\n" . $stack->logs());
            }
        }
        $out = Stack::run(sprintf('EXPECT=%s timeout %d wrk -t1 -c%d -d%ds -s %s %s', escapeshellarg($expected),
            (int)$opts['duration'] + 30, (int)$opts['connections'], (int)$opts['duration'],
            escapeshellarg(dirname(__DIR__) . '/lib/check.lua'), escapeshellarg($stack->url("/$mode"))));
        if (!preg_match('/RESULT requests=(\d+) rps=([\d.]+) worker_us_median=(\d+) first_us_median=(\d+) bad=(\d+) errors=(\d+)/', $out, $m)) {
            Stack::fail("cannot read wrk output:\n$out");
        }
        if ((int)$m[5] > 0) {
            Stack::fail("/$mode: {$m[5]} responses had a wrong status or body");
        }
        $results[$mode]['rps'][] = (float)$m[2];
        $results[$mode]['us'][] = (int)$m[3];
        $results[$mode]['first'][] = (int)$m[4];
        fprintf(STDERR, "%-8s %8.0f req/s  first message %5d µs  request %5d µs\n", $mode, $m[2], $m[4], $m[3]);
    }
}
$status = json_decode($stack->get('/kept?status=1'), true);

$lines = [];
$lines[] = sprintf('%s, %s (%d cores), PHP %s, protobuf runtime %s (pure PHP), nginx + php-fpm (2 workers, pm=static, OPcache), wrk -t1 -c%d -d%ds, %d round(s), modes interleaved.',
    date('Y-m-d H:i'), php_uname('n'), (int)trim(Stack::run('nproc')), PHP_VERSION,
    trim(Stack::run("dpkg-query -W -f='\${Version}' php-google-protobuf")), $opts['connections'], $opts['duration'], $opts['rounds']);
$lines[] = 'A request: script start to the first `new Tutorial\Person()` (autoload, descriptor pool; plus the statics restored before the script started, which preloaded classes are), then an address book of 3 people with 2 phones each, serialized (177 bytes).';
$lines[] = 'Medians over all requests of all rounds (X-First-Message-Us, X-Worker-Us headers); requests/s: median of the rounds.';
$lines[] = '';
$lines[] = '| mode | requests/s | first message µs | request µs | first message vs built | req/s vs built |';
$lines[] = '|---|---:|---:|---:|---:|---:|';
foreach ($modes as $mode => $title) {
    $rps = median($results[$mode]['rps']);
    $first = median($results[$mode]['first']);
    $us = median($results[$mode]['us']);
    $base = ['rps' => median($results[$baseOf[$mode]]['rps']), 'first' => median($results[$baseOf[$mode]]['first'])];
    $lines[] = sprintf('| %s | %s | %s | %s | %s | %.2fx |', $title, number_format($rps, 0), number_format($first, 0),
        number_format($us, 0), $base['first'] > 0 ? sprintf('%.3fx', $first / $base['first']) : 'n/a', $rps / $base['rps']);
}
$lines[] = '';
$lines[] = sprintf('Snapshots kept: %d (%s KB in the cache); published %d times in %s requests (only when a static changed), restored %s times.',
    $status['snapshots'], number_format($status['memory'] / 1024, 0), $status['publishes'],
    number_format(array_sum(array_map(fn ($r) => $r * (int)$opts['duration'], $results['kept']['rps'])), 0),
    number_format($status['restores'], 0));
$autoloaded = [];
foreach ($modes as $mode => $title) {
    $classes = json_decode($stack->get("/$mode?autoloaded=1"), true);
    $autoloaded[] = sprintf('%s %d', $mode, count($classes));
    fprintf(STDERR, "%s autoloads %s\n", $mode, implode(' ', $classes) ?: 'nothing');
}
$lines[] = '';
$lines[] = 'Classes autoloaded before the first message: ' . implode(', ', $autoloaded) . '.';
$table = implode("\n", $lines) . "\n";
echo "\n", $table;
@mkdir($opts['out'], 0777, true);
file_put_contents($opts['out'] . '/protobuf-latest.md', "# protobuf benchmark\n\nCommand: `make bench` (or `php8.2 -d extension=posix bench/protobuf/run.php`).\n\n" . $table);
fprintf(STDERR, "wrote %s/protobuf-latest.md\n", $opts['out']);
