<?php
// php-fpm under wrk: nginx + php-fpm on 127.0.0.1, wrk with 64 connections
// for SECONDS (default 30) on fpm_wrk/endpoint.php, which stores and verifies
// checksummed values (small and over 16 KiB), a counter and remember(), with
// pm.max_requests=50 so workers are recycled all along, and deliberately
// slow requests: every 6 s one that php-fpm's request_terminate_timeout (3 s)
// kills in the middle of cache operations (op=slow_term, answered 502 by
// nginx), and every 3 s one that PHP's max_execution_time ends with a fatal
// error inside a remember() $compute whose key the other requests wait for
// (op=slow_fatal, answered 500).
//
// Checked: 0 wrong answers; every 5xx comes from a deliberately slow request
// (nginx's access log tells which request got which status): 0 caused by
// Resident; the faults really happened (workers terminated, fatal errors,
// workers recycled); afterwards every key verifies, the index is consistent
// and limbo drains.
//
//   php8.2 -n -d extension=posix fpm_wrk.php [SECONDS] [resident.so]
// Prints its figures and "fpm wrk: N passed, N failed".

$seconds = (int)($argv[1] ?? 30);
$ext = $argv[2] ?? dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so';
$fpmBinary = '/usr/sbin/php-fpm8.2';
$endpoint = __DIR__ . '/fpm_wrk/endpoint.php';
$workers = 10;
$terminate = 3;

$dir = sys_get_temp_dir() . '/resident-fpm-wrk-' . getmypid();
@mkdir($dir);
$procs = [];
$failures = [];
$checks = 0;
function check(bool $ok, string $what): void
{
    global $failures, $checks;
    $checks++;
    if (!$ok) {
        $failures[] = $what;
    }
}
function finish(): never
{
    global $failures, $checks;
    foreach ($failures as $f) {
        echo "FAIL $f\n";
    }
    printf("fpm wrk: %d passed, %d failed\n", $checks - count($failures), count($failures));
    exit($failures ? 1 : 0);
}

// Everything started here stops when this script ends, however it ends.
pcntl_async_signals(true);
foreach ([SIGINT, SIGTERM] as $signal) {
    pcntl_signal($signal, fn () => exit(1));
}
register_shutdown_function(function () use (&$procs, $dir) {
    foreach ($procs as $p) {
        $st = proc_get_status($p);
        if ($st['running']) {
            posix_kill($st['pid'], SIGQUIT);
        }
    }
    foreach ($procs as $p) {
        for ($i = 0; $i < 100 && proc_get_status($p)['running']; $i++) {
            usleep(20000);
        }
        $st = proc_get_status($p);
        if ($st['running']) {
            posix_kill($st['pid'], SIGKILL);
        }
        proc_close($p);
    }
    if (getenv('KEEP_LOGS')) {
        fwrite(STDERR, "logs kept in $dir\n");
    } else {
        exec('rm -rf ' . escapeshellarg($dir));
    }
});

// A free port.
$probe = stream_socket_server('tcp://127.0.0.1:0');
$port = (int)substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
fclose($probe);

file_put_contents("$dir/php.ini", <<<INI
memory_limit=256M
display_errors=0
log_errors=1
error_log=$dir/php.log
max_execution_time=30
extension=$ext
resident.memory=16M
resident.testing=1
INI);
file_put_contents("$dir/fpm.conf", <<<CONF
[global]
error_log = $dir/fpm.log
log_level = notice
daemonize = no
[wrk]
listen = $dir/fpm.sock
listen.mode = 0666
listen.backlog = 1024
pm = static
pm.max_children = $workers
pm.max_requests = 50
request_terminate_timeout = {$terminate}s
clear_env = no
catch_workers_output = yes
CONF);
file_put_contents("$dir/nginx.conf", <<<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx.log;
events { worker_connections 1024; }
http {
    log_format ops '\$status \$arg_op \$request_time';
    access_log $dir/access.log ops;
    keepalive_requests 1000000;
    client_body_temp_path $dir;
    fastcgi_temp_path $dir;
    proxy_temp_path $dir;
    uwsgi_temp_path $dir;
    scgi_temp_path $dir;
    server {
        listen 127.0.0.1:$port;
        location / {
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $endpoint;
            fastcgi_pass unix:$dir/fpm.sock;
            fastcgi_read_timeout 120s;
        }
    }
}
CONF);

$env = ['PHP_INI_SCAN_DIR' => '', 'PATH' => getenv('PATH'), 'TMPDIR' => $dir];
$null = ['file', '/dev/null', 'w'];
$procs[] = proc_open([$fpmBinary, '-n', '-c', "$dir/php.ini", '-y', "$dir/fpm.conf", '-F', '-R'],
    [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => ['file', "$dir/fpm.stderr", 'w']], $pipes, null, $env);
$procs[] = proc_open(['/usr/sbin/nginx', '-c', "$dir/nginx.conf", '-p', $dir],
    [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => ['file', "$dir/nginx.stderr", 'w']], $pipes);

function get(int $port, string $query, ?int &$status = null): ?string
{
    $ctx = stream_context_create(['http' => ['timeout' => 30, 'ignore_errors' => true]]);
    $body = @file_get_contents("http://127.0.0.1:$port/?$query", false, $ctx);
    $status = isset($http_response_header[0]) ? (int)explode(' ', $http_response_header[0])[1] : 0;
    return $body === false ? null : $body;
}

$ready = false;
for ($i = 0; $i < 100 && !$ready; $i++) {
    usleep(100000);
    $ready = get($port, 'op=mixed') === "ok\n";
}
if (!$ready) {
    check(false, "nginx/php-fpm did not come up:\n" . @file_get_contents("$dir/fpm.log") . @file_get_contents("$dir/nginx.log")
        . @file_get_contents("$dir/php.log"));
    finish();
}

// --- the run
$cmd = sprintf('TERM_EVERY=6 FATAL_EVERY=3 timeout %d wrk -t2 -c64 -d%ds --timeout 60s -s %s %s 2>&1', $seconds + 90, $seconds,
    escapeshellarg(__DIR__ . '/fpm_wrk/wrk.lua'), escapeshellarg("http://127.0.0.1:$port/"));
exec($cmd, $out, $rc);
$out = implode("\n", $out);
if (!preg_match('/RESULT requests=(\d+) seconds=([\d.]+) ok=(\d+) wrong=(\d+) s5xx=(\d+) other=(\d+) slow=(\d+) connect=(\d+) read=(\d+) write=(\d+) timeout=(\d+) p50_ms=([\d.]+) p99_ms=([\d.]+)/', $out, $m)) {
    check(false, "cannot read wrk's output (exit $rc):\n$out");
    finish();
}
[, $requests, $wrkSeconds, $ok, $wrong, $s5xx, $other, $slow, $connectErr, $readErr, $writeErr, $timeoutErr, $p50, $p99] = $m;
if (preg_match('/^FIRST_WRONG (.*)$/m', $out, $fw)) {
    echo "first wrong answer: {$fw[1]}\n";
}

// The slow requests still running when wrk stopped end (killed) by now.
sleep($terminate + 2);
$verify = get($port, 'op=verify', $vstatus);
// Limbo drains once no request is in flight: what is in use is what the
// pools hold.
usleep(300000);
$after = get($port, 'op=status', $astatus);

// --- attribution: nginx's access log has each request's status and op
$byOp = [];
foreach (file("$dir/access.log", FILE_IGNORE_NEW_LINES) as $line) {
    [$status, $op] = explode(' ', $line) + [1 => ''];
    $byOp[$op === '' ? '-' : $op][$status] = ($byOp[$op === '' ? '-' : $op][$status] ?? 0) + 1;
}
$count = fn (string $op, callable $f) => array_sum(array_filter($byOp[$op] ?? [], $f, ARRAY_FILTER_USE_KEY));
$is5xx = fn ($s) => $s >= 500;
$mixed5xx = $count('mixed', $is5xx);
// 499: wrk closed the connection when its time was up, a request in flight.
$mixedOther = $count('mixed', fn ($s) => $s != 200 && $s != 499 && $s < 500);
$cut = $count('mixed', fn ($s) => $s == 499);
$term5xx = $count('slow_term', $is5xx);
$fatal5xx = $count('slow_fatal', $is5xx);
$slowSent = $count('slow_term', fn () => true) + $count('slow_fatal', fn () => true);

// The logs can be large (a warning per refused store): grep them.
function grep_log(string $pattern, string $file, ?array &$first = null): int
{
    $first = [];
    exec(sprintf('grep -E %s %s 2>/dev/null | head -3', escapeshellarg($pattern), escapeshellarg($file)), $first);
    return (int)exec(sprintf('grep -cE %s %s', escapeshellarg($pattern), escapeshellarg($file)));
}
$recycled = grep_log('child [0-9]+ exited with code 0', "$dir/fpm.log");
$terminated = grep_log('execution timed out', "$dir/fpm.log");
$signalled = grep_log('exited on signal', "$dir/fpm.log");
$fatals = grep_log('Maximum execution time of [0-9]+ seconds? exceeded', "$dir/php.log");
$wrongLogged = grep_log('WRONG ', "$dir/php.log", $wrongLines);
$segfaults = grep_log('SIGSEGV|SIGBUS|SIGABRT|SIGILL|SIGFPE|core dumped', "$dir/fpm.log", $crashLines);
$warnings = grep_log('PHP Warning:.*(No room|is full)', "$dir/php.log");
$otherErrors = grep_log('PHP (Fatal|Warning|Notice|Deprecated)', "$dir/php.log") - $fatals - $warnings;

check($wrong == 0, "$wrong wrong answers");
check($wrongLogged === 0, "$wrongLogged wrong values logged by the endpoint: " . implode("\n", $wrongLines));
check($otherErrors === 0, "$otherErrors errors in PHP's log besides the deliberate fatal errors and refused stores");
check($mixed5xx === 0, "$mixed5xx answers 5xx to ordinary requests (not deliberately slow): caused by Resident");
check($mixedOther === 0, "$mixedOther answers to ordinary requests neither 200 nor 5xx");
check($connectErr + $readErr + $writeErr + $timeoutErr == 0, "socket errors: connect $connectErr, read $readErr, write $writeErr, timeout $timeoutErr");
check($segfaults === 0, "$segfaults workers crashed (a signal other than php-fpm's own SIGTERM):\n" . implode("\n", $crashLines));
check($term5xx > 0 && $terminated > 0, "no request was killed by request_terminate_timeout ($terminated timed out, $term5xx answered 5xx)");
check($fatals > 0 && $fatal5xx > 0, "no request ended with a max_execution_time fatal error ($fatals in the log, $fatal5xx answered 5xx)");
check($recycled > 0, 'no worker was recycled by pm.max_requests');
check($requests > 1000, "only $requests requests");
check($vstatus === 200 && str_starts_with((string)$verify, 'ok '), "verification afterwards: $vstatus " . substr((string)$verify, 0, 500));
$v = json_decode(substr((string)$verify, 3), true) ?: [];
$a = json_decode(substr((string)$after, 3), true) ?: [];
check($astatus === 200 && ($a['limbo_bytes'] ?? -1) === 0 && ($a['memory_used'] ?? -1) === ($a['pools_memory'] ?? -2),
    'after the run: ' . substr((string)$after, 0, 500));

printf("fpm wrk: nginx + php-fpm (%d workers, pm.max_requests=50, request_terminate_timeout=%ds, resident.memory=16M) on 127.0.0.1, "
    . "wrk -t2 -c64 for %.0f s: %d requests (%.0f req/s, p50 %.1f ms, p99 %.1f ms), %d ok, %d wrong; "
    . "5xx: %d caused by Resident (ordinary requests), %d from request_terminate_timeout killing slow requests (nginx 502: the worker died mid-request; %d timed out in php-fpm's log), "
    . "%d from max_execution_time fatal errors inside remember() (PHP's 500; %d in the log), of %d deliberately slow requests; "
    . "%d ordinary requests cut by wrk's end (499); %d workers recycled after 50 requests, %d killed; %d stores refused with a warning (no room: memory held by requests in flight); afterwards (verified, then the accounting): %s\n",
    $workers, $terminate, $wrkSeconds, $requests, $requests / max(1, $wrkSeconds), $p50, $p99, $ok, $wrong,
    $mixed5xx, $term5xx, $terminated, $fatal5xx, $fatals, $slowSent, $cut, $recycled, $signalled, $warnings,
    json_encode($v + $a));
finish();
