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
// Before the run, extra pools stage a 5xx of each cause that is not
// Resident's: an ordinary request killed while it waits in remember() for a
// key a deliberately slow request computes, and ordinary requests nginx
// cannot pass to a pool whose listen queue is full.
//
// Checked: 0 wrong answers; 0 answers 5xx caused by Resident: every 5xx is
// attributed from what nginx, php-fpm and the endpoint logged under the
// request's id (fpm_wrk/attribute.php says how), and printed with its cause
// and evidence: a deliberately slow request, one that waited for it, or
// machine load; the staged ones get their cause; the faults really
// happened (workers terminated, fatal errors, workers recycled); afterwards
// every key verifies, the index is consistent and limbo drains.
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
@mkdir("$dir/journal");
require __DIR__ . '/fpm_wrk/attribute.php';
require __DIR__ . '/../fpm/Fpm.php';
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
register_shutdown_function(function () use (&$procs, &$fpm, $dir) {
    if (isset($fpm)) {
        $fpm->stop();
    }
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

$env = ['TMPDIR' => $dir];
$fpm = new Fpm($fpmBinary, [
    'memory_limit=256M', 'display_errors=0', 'log_errors=1', "error_log=$dir/php.log", 'max_execution_time=30',
    "extension=$ext", 'resident.memory=16M', 'resident.testing=1',
], $workers, [
    'listen.mode' => '0666', 'listen.backlog' => 1024, 'pm.max_requests' => 50, 'request_terminate_timeout' => "{$terminate}s",
], [
    // For the staged 5xx: one worker behind a listen queue of 1; one that
    // computes a remember() key for as long as it is told; one whose
    // ordinary requests php-fpm kills after 1 s.
    'queue' => ['listen.mode' => '0666', 'listen.backlog' => 1, 'pm.max_children' => 1],
    'slow' => ['listen.mode' => '0666', 'pm.max_children' => 1, 'request_terminate_timeout' => '30s'],
    'short' => ['listen.mode' => '0666', 'pm.max_children' => 1, 'request_terminate_timeout' => '1s'],
], $env, ['log_level' => 'notice'], 'wrk', $dir);
$locations = '';
foreach (['/' => 'fpm', '/queue/' => 'queue', '/slow/' => 'slow', '/short/' => 'short'] as $path => $sock) {
    $locations .= <<<LOC
        location $path {
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME $endpoint;
            fastcgi_param JOURNAL_DIR $dir/journal;
            fastcgi_pass unix:$dir/$sock.sock;
            fastcgi_read_timeout 120s;
        }

LOC;
}
file_put_contents("$dir/nginx.conf", <<<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx.log;
events { worker_connections 1024; }
http {
    log_format ops '\$status \$arg_op \$request_time \$arg_rid';
    access_log $dir/access.log ops;
    keepalive_requests 1000000;
    client_body_temp_path $dir;
    fastcgi_temp_path $dir;
    proxy_temp_path $dir;
    uwsgi_temp_path $dir;
    scgi_temp_path $dir;
    server {
        listen 127.0.0.1:$port;
$locations    }
}
CONF);

$null = ['file', '/dev/null', 'w'];
$procs[] = proc_open(['/usr/sbin/nginx', '-c', "$dir/nginx.conf", '-p', $dir],
    [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => ['file', "$dir/nginx.stderr", 'w']], $pipes);

function get(int $port, string $query, ?int &$status = null, string $path = '/'): ?string
{
    $ctx = stream_context_create(['http' => ['timeout' => 30, 'ignore_errors' => true]]);
    $body = @file_get_contents("http://127.0.0.1:$port$path?$query", false, $ctx);
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

// --- staged 5xx, one of each cause that is not Resident's, so that the
// attribution is seen to tell them apart (the rule before it blamed every
// 5xx of an ordinary request on Resident)
function send(int $port, string $uri)
{
    $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 10);
    fwrite($s, "GET $uri HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    return $s;
}
function status_of($s): int
{
    stream_set_timeout($s, 60);
    $response = stream_get_contents($s);
    fclose($s);
    return preg_match('#^HTTP/1\.\d (\d+)#', $response, $m) ? (int)$m[1] : 0;
}
function journaled(string $dir, string $rid, string $phase): bool
{
    $line = '/^' . preg_quote($rid, '/') . ' \S+ ' . preg_quote($phase, '/') . '$/m';
    for ($i = 0; $i < 1000; $i++) {
        foreach (glob("$dir/journal/*") as $f) {
            if (preg_match($line, file_get_contents($f))) {
                return true;
            }
        }
        usleep(10000);
    }
    return false;
}
$staged = [];   // rid => the cause it must be attributed to
// An ordinary request waits in remember() for a key that a deliberately
// slow request computes, until php-fpm kills it (request_terminate_timeout
// of its pool: 1 s).
$holder = send($port, '/slow/?op=slow_hold&release=staged&rid=0-1');
check(journaled($dir, '0-1', 'compute staged'), 'staged: the deliberately slow request did not start computing');
get($port, 'op=remember_staged&rid=0-2', $waiterStatus, '/short/');
touch("$dir/release-staged");
if ($waiterStatus === 502) {
    $staged['0-2'] = 'deliberate';
}
check($waiterStatus === 502 && status_of($holder) === 200, "staged: the request waiting for a deliberately slow computation answered $waiterStatus, not 502");
// Ordinary requests to a pool whose one worker is busy, behind a listen
// queue of 1: what the queue cannot take, nginx cannot connect (502).
$busy = send($port, '/queue/?op=hold&release=queue&rid=0-3');
check(journaled($dir, '0-3', 'begin hold'), 'staged: the request holding the queue pool did not start');
$burst = [];
for ($i = 4; $i < 10; $i++) {
    $burst["0-$i"] = send($port, "/queue/?op=mixed&rid=0-$i");
}
// The kernel queues 2 (backlog + 1): the other 4 are answered at once.
$answered = [];
for ($deadline = microtime(true) + 10; count($answered) < 4 && microtime(true) < $deadline;) {
    $read = array_diff_key($burst, $answered);
    $w = $e = null;
    if (stream_select($read, $w, $e, 0, 100000)) {
        foreach ($read as $rid => $s) {
            $answered[$rid] = status_of($s);
        }
    }
}
touch("$dir/release-queue");
foreach (array_diff_key($burst, $answered) as $rid => $s) {
    $answered[$rid] = status_of($s);
}
status_of($busy);
foreach ($answered as $rid => $status) {
    if ($status === 502) {
        $staged[$rid] = 'load';
    }
}
check(count($staged) > 1, 'staged: no ordinary request found the listen queue full: ' . json_encode($answered));
$stagedCount = count($staged);

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

// --- attribution: nginx's access log has each request's status, op and id
$byOp = [];
$access = [];
foreach (file("$dir/access.log", FILE_IGNORE_NEW_LINES) as $line) {
    [$status, $op, , $rid] = explode(' ', $line) + [1 => '', 2 => '', 3 => '-'];
    $byOp[$op === '' ? '-' : $op][$status] = ($byOp[$op === '' ? '-' : $op][$status] ?? 0) + 1;
    if ($rid !== '-') {
        $access[$rid] = [(int)$status, $op];
    }
}
$causes = ['load' => 0, 'deliberate' => 0, 'resident' => 0];
$blamed = [];
$ordinary5xx = 0;
foreach ($access as [$status, $op]) {
    $ordinary5xx += $status >= 500 && !in_array($op, DELIBERATE_OPS, true);
}
foreach (attribute_5xx($dir, $access) as $r) {
    if (in_array($r['op'], DELIBERATE_OPS, true)) {
        continue;   // the deliberately slow requests themselves
    }
    if (isset($staged[$r['rid']])) {
        check($r['cause'] === $staged[$r['rid']], "staged 5xx to {$r['rid']} attributed to {$r['cause']}, not {$staged[$r['rid']]}: {$r['why']}");
        unset($staged[$r['rid']]);
    }
    $causes[$r['cause']]++;
    $report = "5xx ({$r['status']}) to ordinary request {$r['rid']}: {$r['cause']}: {$r['why']}\n    " . implode("\n    ", $r['evidence']);
    echo $report, "\n";
    if ($r['cause'] === 'resident') {
        $blamed[] = $report;
    }
}
$count = fn (string $op, callable $f) => array_sum(array_filter($byOp[$op] ?? [], $f, ARRAY_FILTER_USE_KEY));
$is5xx = fn ($s) => $s >= 500;
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
$terminated = grep_log('\\[pool wrk\\] .*execution timed out', "$dir/fpm.log");
$signalled = grep_log('\\[pool wrk\\] .*exited on signal', "$dir/fpm.log");
$fatals = grep_log('Maximum execution time of [0-9]+ seconds? exceeded', "$dir/php.log");
$wrongLogged = grep_log('WRONG ', "$dir/php.log", $wrongLines);
$segfaults = grep_log('SIGSEGV|SIGBUS|SIGABRT|SIGILL|SIGFPE|core dumped', "$dir/fpm.log", $crashLines);
$warnings = grep_log('PHP Warning:.*(No room|is full)', "$dir/php.log");
$otherErrors = grep_log('PHP (Fatal|Warning|Notice|Deprecated)', "$dir/php.log") - $fatals - $warnings;

check($wrong == 0, "$wrong wrong answers");
check($wrongLogged === 0, "$wrongLogged wrong values logged by the endpoint: " . implode("\n", $wrongLines));
check($otherErrors === 0, "$otherErrors errors in PHP's log besides the deliberate fatal errors and refused stores");
check($causes['resident'] === 0, count($blamed) . " answers 5xx to ordinary requests caused by Resident:\n" . implode("\n", $blamed));
check(array_sum($causes) === $ordinary5xx, "$ordinary5xx ordinary requests answered 5xx, " . array_sum($causes) . ' of them attributed');
check(!$staged, 'staged 5xx not attributed: ' . json_encode($staged));
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
    . "5xx to ordinary requests: %d caused by Resident, %d by machine load, %d by waiting for a deliberately slow request (%d of these staged before the run); %d from request_terminate_timeout killing slow requests (nginx 502: the worker died mid-request; %d timed out in php-fpm's log), "
    . "%d from max_execution_time fatal errors inside remember() (PHP's 500; %d in the log), of %d deliberately slow requests; "
    . "%d ordinary requests cut by wrk's end (499); %d workers recycled after 50 requests, %d killed; %d stores refused with a warning (no room: memory held by requests in flight); afterwards (verified, then the accounting): %s\n",
    $workers, $terminate, $wrkSeconds, $requests, $requests / max(1, $wrkSeconds), $p50, $p99, $ok, $wrong,
    $causes['resident'], $causes['load'], $causes['deliberate'], $stagedCount, $term5xx, $terminated, $fatal5xx, $fatals, $slowSent, $cut, $recycled, $signalled, $warnings,
    json_encode($v + $a));
finish();
