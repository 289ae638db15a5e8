<?php
/*
 * The HTTP benchmark: nginx + php-fpm on 127.0.0.1 with Resident and APCu
 * loaded in the same workers, driven by wrk, every scenario and backend in
 * one run, interleaved over rounds.
 *
 *   php8.2 bench/http/run.php [--duration=S] [--rounds=N] [--connections=C]
 *                             [--out=DIR] [--ext=resident.so]
 *
 * Prints per scenario and backend: requests/s, median worker µs, ratios
 * against APCu; writes DIR/latest.md and DIR/latest.svg. Every process it
 * starts is stopped when it ends, also on failure.
 */

$opts = ['duration' => 5, 'rounds' => 1, 'connections' => 8, 'out' => dirname(__DIR__) . '/results',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}

const SCENARIOS = [
    'config' => ['config array, 10,000 leaves, read once per request', ['build', 'include', 'apcu', 'resident']],
    'repeat_fetch' => ['same key (1,000 routes) fetched 100 times per request', ['apcu', 'resident']],
    'shared_graph' => ['object graph (routes, services, 300 DTOs; 0.9 MB serialized), read once', ['build', 'serialize', 'apcu', 'apcu_igbinary', 'resident']],
    'shared_graph_mutate' => ['the same graph, fetched then a few nodes modified', ['apcu', 'resident']],
    'request_over_static' => ['compiled route table (4,000 routes, 2,000 regexes) in a static property, two lookups', ['local', 'apcu', 'resident', 'persisted']],
    'carbon' => ['200 Carbon dates (resident.direct_classes=Carbon\\Carbon)', ['apcu', 'resident']],
    'slim_hello' => ['Slim 3 hello world, booted by every request', ['local', 'persisted']],
];

$dir = sys_get_temp_dir() . '/resident-http-' . getmypid();
mkdir($dir);
$procs = [];
// Interrupted (Ctrl-C, timeout): stop the servers on the way out.
if (function_exists('pcntl_async_signals')) {
    pcntl_async_signals(true);
    foreach ([SIGINT, SIGTERM] as $signal) {
        pcntl_signal($signal, fn () => exit(1));
    }
}
register_shutdown_function(function () use (&$procs, $dir) {
    foreach ($procs as $p) {
        $st = proc_get_status($p);
        if ($st['running']) {
            posix_kill($st['pid'], SIGTERM);
        }
    }
    foreach ($procs as $p) {
        proc_close($p);
    }
    exec('rm -rf ' . escapeshellarg($dir));
});

function fail(string $msg): never
{
    fwrite(STDERR, "http bench: $msg\n");
    exit(1);
}

function run(string $cmd): string
{
    exec($cmd . ' 2>&1', $out, $rc);
    if ($rc !== 0) {
        fail("`$cmd` failed:\n" . implode("\n", $out));
    }
    return implode("\n", $out);
}

/* ---- servers ------------------------------------------------------------------ */

$phpdir = '/usr/lib/php/' . basename(PHP_EXTENSION_DIR);
$port = 18000 + getmypid() % 2000;
$app = __DIR__ . '/app.php';
// APCu reads apc.serializer when its cache is made, in the master: the
// apcu_igbinary backend is served by a master of its own whose only
// difference is apc.serializer=igbinary; nginx picks the master by backend.
$ini = <<<INI
memory_limit=512M
display_errors=stderr
log_errors=1
zend_extension=opcache.so
opcache.enable=1
opcache.memory_consumption=256
opcache.interned_strings_buffer=32
opcache.validate_timestamps=0
opcache.file_update_protection=0
extension=igbinary.so
extension=apcu.so
apc.shm_size=256M
apc.serializer=php
extension={$opts['ext']}
resident.memory=256M
resident.direct_classes=Carbon\\Carbon

INI;
file_put_contents("$dir/php.ini", $ini);
file_put_contents("$dir/php-igbinary.ini", str_replace("apc.serializer=php\n", "apc.serializer=igbinary\n", $ini));
foreach (['fpm', 'fpm-igbinary'] as $name) {
    file_put_contents("$dir/$name.conf", <<<CONF
[global]
pid = $dir/$name.pid
error_log = $dir/$name.log
daemonize = no
[bench]
listen = $dir/$name.sock
; nginx workers do not run as root
listen.mode = 0666
pm = static
pm.max_children = 2
pm.max_requests = 0
clear_env = no
catch_workers_output = yes
CONF);
}
file_put_contents("$dir/nginx.conf", <<<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx.log;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $dir;
    fastcgi_temp_path $dir;
    proxy_temp_path $dir;
    uwsgi_temp_path $dir;
    scgi_temp_path $dir;
    map \$arg_backend \$fpm {
        default unix:$dir/fpm.sock;
        apcu_igbinary unix:$dir/fpm-igbinary.sock;
    }
    server {
        listen 127.0.0.1:$port;
        location / {
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $app;
            fastcgi_pass \$fpm;
        }
    }
}
CONF);

$env = ['PHP_INI_SCAN_DIR' => '', 'PATH' => getenv('PATH'), 'TMPDIR' => $dir];
$null = ['file', '/dev/null', 'w'];
foreach (['php' => 'fpm', 'php-igbinary' => 'fpm-igbinary'] as $ini_name => $name) {
    $procs[] = proc_open(['/usr/sbin/php-fpm8.2', '-n', '-c', "$dir/$ini_name.ini", '-y', "$dir/$name.conf", '-F', '-R'],
        [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes, null, $env);
}
$procs[] = proc_open(['/usr/sbin/nginx', '-c', "$dir/nginx.conf", '-p', $dir],
    [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes);

function get(int $port, string $query, ?array &$headers = null): ?string
{
    $ctx = stream_context_create(['http' => ['timeout' => 10, 'ignore_errors' => true]]);
    $body = @file_get_contents("http://127.0.0.1:$port/?$query", false, $ctx);
    $headers = $http_response_header ?? [];
    return $body === false ? null : $body;
}

$ready = false;
for ($i = 0; $i < 100 && !$ready; $i++) {
    usleep(100000);
    $ready = str_starts_with((string)get($port, 'scenario=config&backend=build'), 'ok ')
        && str_starts_with((string)get($port, 'scenario=config&backend=apcu_igbinary'), 'ok ');
}
if (!$ready) {
    fail("nginx/php-fpm did not come up:\n" . run("tail -n 20 $dir/fpm.log $dir/fpm-igbinary.log $dir/nginx.log"));
}

/* ---- runs ------------------------------------------------------------------------ */

$expected = json_decode(run(escapeshellarg(PHP_BINARY) . ' -n ' . escapeshellarg(__DIR__ . '/expected.php')), true);
$results = [];
for ($round = 0; $round < (int)$opts['rounds']; $round++) {
    foreach (SCENARIOS as $scenario => [$title, $backends]) {
        // Rotate the backend order every round.
        $n = count($backends);
        $order = $n ? array_merge(array_slice($backends, $round % $n), array_slice($backends, 0, $round % $n)) : [];
        foreach ($order as $backend) {
            $q = "scenario=$scenario&backend=$backend";
            // Warm: fills the cache (and OPcache), checks the answer once.
            for ($i = 0; $i < 4; $i++) {
                $body = get($port, $q);
                if ($body !== "ok {$expected[$scenario]}\n") {
                    fail("$q answered " . var_export($body, true) . ", expected digest {$expected[$scenario]}");
                }
            }
            $out = run(sprintf('EXPECT=%s timeout %d wrk -t1 -c%d -d%ds -s %s %s',
                escapeshellarg($expected[$scenario]), (int)$opts['duration'] + 30, (int)$opts['connections'],
                (int)$opts['duration'], escapeshellarg(dirname(__DIR__) . '/lib/check.lua'),
                escapeshellarg("http://127.0.0.1:$port/?$q")));
            if (!preg_match('/RESULT requests=(\d+) rps=([\d.]+) worker_us_median=(\d+) first_us_median=\d+ bad=(\d+) errors=(\d+)/', $out, $m)) {
                fail("cannot read wrk output:\n$out");
            }
            if ((int)$m[4] > 0) {
                fail("$q: {$m[4]} responses had a wrong status or digest");
            }
            $results[$scenario][$backend]['rps'][] = (float)$m[2];
            $results[$scenario][$backend]['us'][] = (int)$m[3];
            fprintf(STDERR, "%-20s %-10s %8.0f req/s  %6d µs\n", $scenario, $backend, $m[2], $m[3]);
        }
    }
}

/* ---- report ---------------------------------------------------------------------- */

function ratio(float $x): string
{
    return $x >= 0.1 ? sprintf('%.2fx', $x) : sprintf('%.3fx', $x);
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

$lines = [];
$lines[] = sprintf('%s, %s (%d cores), PHP %s, nginx + php-fpm (2 workers, pm=static), wrk -t1 -c%d -d%ds, %d round(s).',
    date('Y-m-d H:i'), php_uname('n'), (int)trim(run('nproc')), PHP_VERSION, $opts['connections'], $opts['duration'], $opts['rounds']);
$lines[] = 'Worker µs: median of the X-Worker-Us header (time spent in the request handler).';
$lines[] = 'req/s vs APCu: higher is better; worker time vs APCu: the share of APCu\'s time, lower is better.';
$lines[] = '';
$lines[] = '| scenario | backend | requests/s | worker µs (median) | req/s vs APCu | worker time vs APCu |';
$lines[] = '|---|---|---:|---:|---:|---:|';
$chart = [];
foreach (SCENARIOS as $scenario => [$title, $backends]) {
    $apcu = isset($results[$scenario]['apcu']) ? [median($results[$scenario]['apcu']['rps']), median($results[$scenario]['apcu']['us'])] : null;
    foreach ($backends as $backend) {
        $rps = median($results[$scenario][$backend]['rps']);
        $us = median($results[$scenario][$backend]['us']);
        $lines[] = sprintf('| %s | %s | %s | %s | %s | %s |', $scenario, $backend, number_format($rps, 0), number_format($us, 0),
            $apcu ? sprintf('%.2fx', $rps / $apcu[0]) : '', $apcu && $us > 0 ? ratio($us / $apcu[1]) : ($apcu ? 'n/a (<1 µs)' : ''));
        $chart[$scenario][$backend] = $rps;
    }
}
$lines[] = '';
$lines[] = '`apcu`: APCu with apc.serializer=php; `apcu_igbinary`: APCu with apc.serializer=igbinary (a php-fpm master of its own,';
$lines[] = 'otherwise configured alike). `local`: rebuilt by the request;';
$lines[] = '`persisted`: kept in `KeptRoutes::$table` by #[Resident\\RequestOverStatic], restored when the class is linked;';
$lines[] = 'for slim_hello, FastRoute\'s route data only: Slim\'s container, app and routes hold closures and are built by every request.';
// Issue #6's goals, on the median worker time.
$us = fn (string $scenario, string $backend) => median($results[$scenario][$backend]['us'] ?? [0]);
$goal = function (string $scenario, string $backend, string $against, float $max) use ($us): string {
    $base = $us($scenario, $against);
    $r = $base > 0 ? max($us($scenario, $backend), 1) / $base : INF;
    return sprintf('- [%s] %s: %s worker time at most %sx %s: %s', $r <= $max ? 'met' : 'NOT MET', $scenario, $backend, $max, $against, ratio($r));
};
$lines[] = '';
$lines[] = 'Goals (issue #6; a worker time under 1 µs counts as 1 µs):';
$lines[] = $goal('shared_graph', 'resident', 'apcu', 0.5);
$lines[] = $goal('repeat_fetch', 'resident', 'apcu', 0.4);
$lines[] = $goal('request_over_static', 'persisted', 'apcu', 0.15);
$lines[] = $goal('request_over_static', 'persisted', 'local', 0.05);
$table = implode("\n", $lines) . "\n";
echo "\n", $table;

@mkdir($opts['out'], 0777, true);
file_put_contents($opts['out'] . '/latest.md', "# HTTP benchmark\n\nCommand: `make demo` (short) or `make bench` (long).\n\n" . $table);

// A grouped bar chart of requests/s, drawn by hand: no CDN, no library.
$colors = ['build' => '#9e9e9e', 'include' => '#7e57c2', 'serialize' => '#8d6e63', 'apcu' => '#ef6c00', 'apcu_igbinary' => '#ffa726', 'resident' => '#1e88e5', 'local' => '#9e9e9e', 'persisted' => '#00897b'];
$max = max(array_map('max', $chart));
$rowh = 22;
$y = 40;
$svg = [];
foreach ($chart as $scenario => $bars) {
    $svg[] = sprintf('<text x="10" y="%d" font-weight="bold">%s</text>', $y, htmlspecialchars($scenario));
    $y += 8;
    foreach ($bars as $backend => $rps) {
        $w = max(1, (int)round(560 * $rps / $max));
        $svg[] = sprintf('<rect x="110" y="%d" width="%d" height="16" fill="%s"/><text x="10" y="%d">%s</text><text x="%d" y="%d">%s req/s</text>',
            $y, $w, $colors[$backend] ?? '#555', $y + 12, $backend, 116 + $w, $y + 12, number_format($rps, 0));
        $y += $rowh;
    }
    $y += 12;
}
file_put_contents($opts['out'] . '/latest.svg', sprintf(
    '<svg xmlns="http://www.w3.org/2000/svg" width="820" height="%d" font-family="sans-serif" font-size="12">'
    . '<rect width="100%%" height="100%%" fill="white"/><text x="10" y="20" font-size="14">Requests/s, nginx + php-fpm (%s)</text>%s</svg>' . "\n",
    $y + 10, date('Y-m-d'), implode('', $svg)));
fprintf(STDERR, "wrote %s/latest.md and %s/latest.svg\n", $opts['out'], $opts['out']);
