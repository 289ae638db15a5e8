<?php
/*
 * The app benchmarks of issue 25 (bench/slim/run.php, bench/laravel/run.php
 * set $manifest, their bench.php, and include this file): a framework app
 * shaped like its official skeleton (bench/<app>/skeleton/, dependencies
 * installed by Composer into build/bench-<app>/app) answering "GET /" under
 * nginx + php-fpm 8.2 (2 static workers per master, unix socket, OPcache
 * on, timestamps not validated) in the configurations the manifest lists:
 * as it is, with opcache.preload, kept booted in Resident, an empty script
 * (the floor) and a worker-mode anchor (2 long-lived CLI processes serving
 * HTTP themselves: the app's bin/worker.php on bench/lib/http_loop.php),
 * all in one run, interleaved (the order rotates every round).
 *
 *   php8.2 -n -d extension=posix bench/<app>/run.php [--duration=S] [--rounds=N]
 *          [--connections=1,4,16] [--out=FILE] [--ext=resident.so] [--callgrind=0]
 *
 * requests/s: wrk -t1 -cC -dS per configuration and connection count,
 * median of the rounds. CPU per request: the PHP processes' and nginx's
 * CPU time during each wrk run. Instructions per request: callgrind on
 * `php-cgi8.2 -T N` with the same ini, (Ir(N=23) - Ir(N=3)) / 20 (startup,
 * compilation and the first request cancel out; no FastCGI, nginx or fpm
 * accept loop); for the worker, its request loop in-process without HTTP.
 * Every configuration must answer the same statuses and bodies for the
 * manifest's paths (checked before and after the runs), else the bench
 * fails.
 */
require __DIR__ . '/Stack.php';

$root = dirname(__DIR__, 2);
$id = $manifest['id'];
$opts = ['duration' => 3, 'rounds' => 5, 'connections' => '1,4,16', 'out' => dirname(__DIR__) . "/results/$id-latest.md",
    'ext' => "$root/build/php-8.2/modules/resident.so", 'callgrind' => 1];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
$connections = array_map('intval', explode(',', $opts['connections']));
$started = time();
foreach (['/usr/sbin/php-fpm8.2', '/usr/sbin/nginx', '/usr/bin/wrk', '/usr/bin/php-cgi8.2', $opts['ext']] as $need) {
    if (!is_file($need)) {
        Stack::fail("the $id bench needs $need");
    }
}
if ($opts['callgrind'] && !is_file('/usr/bin/valgrind')) {
    Stack::fail("the $id bench needs /usr/bin/valgrind (or --callgrind=0)");
}

/* ---- the app and its dependencies --------------------------------------------------- */

// A fresh copy each run (build/ is git-ignored); Composer installs what the lock names.
$app = "$root/build/bench-$id/app";
Stack::run('rm -rf ' . escapeshellarg($app) . ' && mkdir -p ' . escapeshellarg($app) . ' && cp -r '
    . escapeshellarg($manifest['source']) . '/. ' . escapeshellarg($app));
@mkdir("$app/bin");
foreach (['http_loop.php', 'list-classes.php'] as $file) {
    copy(__DIR__ . "/$file", "$app/bin/$file");
}
copy(__DIR__ . '/preload.php', "$app/preload.php");
fwrite(STDERR, "composer install (into $app)\n");
Stack::run('composer install --no-dev --no-interaction --no-progress -d ' . escapeshellarg($app));
($manifest['setup'] ?? fn () => null)($app);
$versions = [];
foreach (json_decode(file_get_contents("$app/vendor/composer/installed.json"), true)['packages'] as $p) {
    $versions[$p['name']] = $p['version'];
}

$cgiEnv = fn (string $script) => ['REQUEST_METHOD' => 'GET', 'REQUEST_URI' => '/', 'SCRIPT_FILENAME' => $script,
    'SERVER_NAME' => '127.0.0.1', 'HTTP_HOST' => '127.0.0.1', 'PATH' => getenv('PATH'), 'PHP_INI_SCAN_DIR' => ''];

function cgi(array $ini, array $env, int $requests, ?string $callgrindOut = null, array $extraEnv = []): string
{
    $cmd = $callgrindOut ? ['/usr/bin/valgrind', '--tool=callgrind', "--callgrind-out-file=$callgrindOut"] : [];
    array_push($cmd, '/usr/bin/php-cgi8.2', '-n', '-d', 'cgi.force_redirect=0');
    foreach ($ini as $line) {
        array_push($cmd, '-d', $line);
    }
    array_push($cmd, '-q', '-T', (string)$requests, $env['SCRIPT_FILENAME']);
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $extraEnv + $env);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    if (proc_close($proc) !== 0) {
        Stack::fail(implode(' ', $cmd) . " failed:\n$out\n$err");
    }
    return $out;
}

$base = ['memory_limit=256M', 'display_errors=stderr', 'log_errors=0', 'zend_extension=opcache.so', 'opcache.enable=1',
    'opcache.enable_cli=1', 'opcache.memory_consumption=128', 'opcache.interned_strings_buffer=16',
    'opcache.validate_timestamps=0', 'opcache.file_update_protection=0', ...$manifest['ini']];
$resident = ["extension={$opts['ext']}", 'resident.memory=64M'];
// The classes a request for "/" uses, by every front controller, for opcache.preload.
@mkdir("$app/var");
foreach (array_unique(array_filter(array_column($manifest['configs'] + ($manifest['controls'] ?? []), 1))) as $script) {
    cgi(array_merge($base, $resident, ["auto_prepend_file=$app/bin/list-classes.php"]), $cgiEnv("$app/public/$script"), 3, null,
        ['CLASS_LIST' => "$app/var/classes.txt"]);
}
$classes = array_unique(file("$app/var/classes.txt", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES));
sort($classes);
file_put_contents("$app/var/preload-classes.txt", implode("\n", $classes) . "\n");
// php-fpm's master runs as root here (-R): preloading then needs a user, and root keeps it in the master.
$preload = ["opcache.preload=$app/preload.php", 'opcache.preload_user=root'];

/* ---- configurations ------------------------------------------------------------------ */

// name => [label, front controller (null: the worker), ini]
$iniOf = fn (array $with) => array_merge($base, in_array('resident', $with, true) ? $resident : [],
    in_array('preload', $with, true) ? $preload : []);
$configs = array_map(fn ($c) => [$c[0], $c[1], $iniOf($c[2])], $manifest['configs']);
// Instructions only.
$controls = array_map(fn ($c) => [$c[0], $c[1], $iniOf($c[2])], $manifest['controls'] ?? []);

$stack = new Stack();
foreach ($configs as $name => [$label, $script, $ini]) {
    if ($script !== null) {
        $stack->fpm($name, "/$name/", "$app/public/$script", $ini, [], 2, true);
    }
}
$workerPort = $stack->port + 2000;
for ($i = 0; $i < 2; $i++) {
    $cmd = ['/usr/bin/php8.2', '-n'];
    foreach ($configs['worker'][2] as $line) {
        array_push($cmd, '-d', $line);
    }
    array_push($cmd, "$app/bin/worker.php", "--port=$workerPort");
    $stack->spawn("worker$i", $cmd);
}
$stack->start('/plain/', fn (?string $body) => $body !== null);

$url = fn (string $name, string $path) => $name === 'worker' ? "http://127.0.0.1:$workerPort$path" : $stack->url("/$name$path");
function fetch(string $url): array
{
    $ctx = stream_context_create(['http' => ['timeout' => 10, 'ignore_errors' => true]]);
    $body = @file_get_contents($url, false, $ctx);
    return [(int)(explode(' ', $http_response_header[0] ?? 'HTTP/1.1 0')[1] ?? 0), $body === false ? null : $body];
}
// Stack::start() waited for plain only: a master that preloads, or a worker, may come up later.
foreach (array_keys($configs) as $name) {
    for ($i = 0; $i < 100 && fetch($url($name, '/'))[0] !== 200; $i++) {
        usleep(100000);
    }
}
// Byte-identical bodies (and statuses) across configurations; the floor answers "/" only.
$check = function () use ($configs, $url, $stack, $manifest): void {
    foreach ($manifest['paths'] as $path) {
        $want = fetch($url('plain', $path));
        if ($want[1] === null || ($path === '/' && $want !== [200, 'Hello world!'])) {
            Stack::fail("plain answered $path with " . var_export($want, true) . "\n" . $stack->logs());
        }
        foreach (array_keys($configs) as $name) {
            if ($name === 'floor' && $path !== '/') {
                continue;
            }
            // Twice: a kept app's first request builds and stores it, the next fetches it.
            for ($i = 0; $i < 2; $i++) {
                $got = fetch($url($name, $path));
                if ($got !== $want) {
                    Stack::fail("$name answered $path with " . var_export($got, true) . ', plain with ' . var_export($want, true)
                        . "\n" . $stack->logs());
                }
            }
        }
    }
};
$check();

/* ---- requests/s ---------------------------------------------------------------------- */

$names = array_keys($configs);
// Warm every worker of every configuration (OPcache, the kept app) before the first measurement.
foreach ($names as $name) {
    Stack::run(sprintf('wrk -t1 -c4 -d1s %s', escapeshellarg($url($name, '/'))));
}
$rps = [];
$phpUs = [];
$nginxUs = [];
$errors = [];
$load = [sys_getloadavg()[0]];
for ($round = 0; $round < (int)$opts['rounds']; $round++) {
    $order = array_merge(array_slice($names, $round % count($names)), array_slice($names, 0, $round % count($names)));
    foreach ($order as $name) {
        foreach ($connections as $c) {
            $php = $name === 'worker' ? ['worker0', 'worker1'] : [$name];
            $cpu = [$stack->cpuNs($php), $name === 'worker' ? 0 : $stack->cpuNs(['nginx'])];
            $out = Stack::run(sprintf('timeout %d wrk -t1 -c%d -d%ds %s', (int)$opts['duration'] + 30, $c, (int)$opts['duration'],
                escapeshellarg($url($name, '/'))));
            $cpu = [$stack->cpuNs($php) - $cpu[0], $name === 'worker' ? 0 : $stack->cpuNs(['nginx']) - $cpu[1]];
            if (!preg_match('/Requests\/sec:\s+([\d.]+)/', $out, $m) || !preg_match('/(\d+) requests in/', $out, $n)) {
                Stack::fail("cannot read wrk's output:\n$out");
            }
            if (preg_match('/Non-2xx or 3xx responses: (\d+)/', $out, $bad)) {
                Stack::fail("$name c=$c: {$bad[1]} responses were not 2xx\n$out\n" . $stack->logs());
            }
            $rps[$name][$c][] = (float)$m[1];
            $phpUs[$name][$c][] = $cpu[0] / 1000 / (int)$n[1];
            $nginxUs[$name][$c][] = $cpu[1] / 1000 / (int)$n[1];
            if (preg_match('/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/', $out, $e)) {
                $errors[$name] = ($errors[$name] ?? 0) + $e[1] + $e[2] + $e[3] + $e[4];
            }
            fprintf(STDERR, "round %d  %-14s c=%-3d %9.0f req/s  CPU µs/request: php %4.0f nginx %4.0f\n", $round + 1, $name, $c, $m[1],
                end($phpUs[$name][$c]), end($nginxUs[$name][$c]));
        }
    }
    $load[] = sys_getloadavg()[0];
}
$check();
$stack->stop();

/* ---- instructions per request ---------------------------------------------------------- */

$ir = [];
// Inclusive instructions of these functions, per request, for the kept app's configurations: what its fetch costs.
const FETCH_PARTS = ['fetch' => 'zim_Resident_Cache_keep', 'profiles' => 'rv_class_profile_of'];
$parts = [];
if ($opts['callgrind']) {
    $irOf = function (Closure $cmd, string $expect, int $n, ?array &$inclusive = null) use ($stack): int {
        $file = "{$stack->dir}/callgrind.out";
        @mkdir($stack->dir);
        $out = $cmd($n, $file);
        if ($expect === 'loop' ? $out !== 'Hello world!' : substr_count($out, $expect) !== $n) {
            Stack::fail("the callgrind run did not answer $n times:\n$out");
        }
        preg_match('/^(?:summary|totals): (\d+)/m', file_get_contents($file), $m);
        $inclusive = [];
        $annotated = Stack::run('callgrind_annotate --inclusive=yes --threshold=100 ' . escapeshellarg($file));
        foreach (FETCH_PARTS as $part => $function) {
            preg_match_all('/^\s*([\d,]+) .*:' . $function . '\b/m', $annotated, $hits);
            $inclusive[$part] = max(array_map(fn ($v) => (int)str_replace(',', '', $v), $hits[1] ?: ['0']));
        }
        unlink($file);
        return (int)$m[1];
    };
    foreach ($configs + $controls as $name => [$label, $script, $ini]) {
        fwrite(STDERR, "callgrind: $name\n");
        if ($script === null) {
            $cmd = function (int $n, string $file) use ($ini, $app): string {
                $args = ['/usr/bin/valgrind', '-q', '--tool=callgrind', "--callgrind-out-file=$file", '/usr/bin/php8.2', '-n'];
                foreach ($ini as $line) {
                    array_push($args, '-d', $line);
                }
                array_push($args, "$app/bin/worker.php", "--loop=$n");
                return Stack::run(implode(' ', array_map('escapeshellarg', $args)));
            };
            $expect = 'loop';
        } else {
            $cmd = fn (int $n, string $file) => cgi($ini, $cgiEnv("$app/public/$script"), $n, $file);
            $expect = 'Hello world!';
        }
        $ir[$name] = ($irOf($cmd, $expect, 23, $long) - $irOf($cmd, $expect, 3, $short)) / 20;
        if (str_starts_with($name, 'kept') && !empty($manifest['fetch_parts'])) {
            foreach (FETCH_PARTS as $part => $function) {
                $parts[$name][$part] = ($long[$part] - $short[$part]) / 20;
            }
        }
    }
}

/* ---- report ---------------------------------------------------------------------------- */

$med = fn (string $name, int $c) => median($rps[$name][$c]);
$lines = [];
$lines[] = "# {$manifest['title']}";
$lines[] = '';
$lines[] = sprintf('Run of %s UTC on %s (%d cores), PHP %s, %s, %s. Took %d s.', gmdate('Y-m-d H:i', $started), php_uname('n'),
    (int)trim(Stack::run('nproc')), PHP_VERSION, 'nginx ' . trim(explode('/', Stack::run('/usr/sbin/nginx -v'))[1] ?? '?'),
    'wrk ' . trim(explode(' ', (string)shell_exec('wrk -v 2>&1'))[1] ?? '?'), time() - $started);
$lines[] = sprintf('App: bench/%s/skeleton (%s).', $id, implode(', ', array_map(fn ($p) => "$p {$versions[$p]}", $manifest['packages'])));
$lines[] = sprintf('Command: `make bench` (or `php8.2 -n -d extension=posix bench/%s/run.php --duration=%d --rounds=%d --connections=%s`).',
    $id, $opts['duration'], $opts['rounds'], $opts['connections']);
$lines[] = sprintf('requests/s: `wrk -t1 -cC -d%ds` on `GET /`, median of %d interleaved rounds (order rotated every round); load average %s over the rounds.',
    $opts['duration'], $opts['rounds'], implode(' ', array_map(fn ($l) => sprintf('%.1f', $l), $load)));
$lines[] = 'Instructions: callgrind, (Ir(23 requests) - Ir(3)) / 20 of `php-cgi8.2 -T` with the same ini (PHP only: no FastCGI, nginx or fpm);'
    . ' worker: its request loop in-process, no HTTP.';
$lines[] = 'CPU µs / request: CPU time (/proc/PID/schedstat) of the PHP processes (php-fpm workers, or the worker processes) and of nginx during'
    . ' the wrk run, over its requests, median of the rounds: less sensitive to the machine\'s load than requests/s, though it includes'
    . ' what contention for caches and cores adds.';
$lines[] = 'Every configuration answered byte-identical bodies (and the same statuses) for ' . implode(', ', array_map(fn ($p) => "`$p`", $manifest['paths']))
    . ' (`/` answers `Hello world!`), before and after the runs.';
$lines[] = '';
$head = '| configuration |';
$sep = '|---|';
foreach ($connections as $c) {
    $head .= " rps c=$c |";
    $sep .= '---:|';
}
$cmax = max($connections);
$head .= ' rps vs plain (c=' . implode(' / ', $connections) . ") | CPU µs / request, c=$cmax: php + nginx | k instructions / request | instructions vs plain |";
$sep .= '---|---:|---:|---:|';
$lines[] = $head;
$lines[] = $sep;
foreach ($configs + $controls as $name => [$label]) {
    $row = "| `$name`: $label |";
    $ratios = [];
    foreach ($connections as $c) {
        $row .= isset($rps[$name]) ? ' ' . number_format($med($name, $c)) . ' |' : ' |';
        $ratios[] = isset($rps[$name]) ? sprintf('%.2fx', $med($name, $c) / $med('plain', $c)) : '';
    }
    $row .= ' ' . (isset($rps[$name]) ? implode(' / ', $ratios) : '') . ' |';
    $row .= isset($rps[$name]) ? sprintf(' %s + %s |', number_format(median($phpUs[$name][$cmax])), number_format(median($nginxUs[$name][$cmax])))
        : ' |';
    $row .= isset($ir[$name]) ? sprintf(' %s | %.2fx |', number_format($ir[$name] / 1000, 1), $ir[$name] / $ir['plain']) : ' | |';
    $lines[] = $row;
}
$lines[] = '';
$lines[] = 'Spread (min–max over the rounds): ' . implode('; ', array_map(fn ($name) => "$name " . implode(', ', array_map(
    fn ($c) => sprintf('c=%d %s–%s', $c, number_format(min($rps[$name][$c])), number_format(max($rps[$name][$c]))), $connections)), $names)) . '.';
$lines[] = 'Socket errors reported by wrk: ' . (array_sum($errors) ? implode(', ', array_map(fn ($n, $e) => "$n $e", array_keys($errors), $errors)) : 'none') . '.';
foreach ($manifest['notes'] as $note) {
    $lines[] = '';
    $lines[] = $note;
}
foreach ($parts as $name => $p) {
    $lines[] = '';
    $lines[] = sprintf('`%s`: fetching the kept app (`Cache::keep()` on a hit, inclusive: autoloading the classes it holds unless'
        . ' preloaded, and the reset) costs %sk instructions per request,'
        . ' of which %sk resolve the profiles of its objects\' classes (`rv_class_profile_of`).', $name,
        number_format($p['fetch'] / 1000, 1), number_format($p['profiles'] / 1000, 1));
}
if (isset($ir['kept_preload'], $ir['control_keep_only'], $ir['control_serve_twice'], $parts['kept_preload'])) {
    // What Resident's part is, and what is the app's own and PHP's, in the
    // figure that does not move with load.
    $k = fn (float $v) => number_format($v / 1000, 1) . 'k';
    $keep = $parts['kept_preload']['fetch'];
    $serve = $ir['kept_preload'] - $ir['control_keep_only'];
    $warm = $ir['control_serve_twice'] - $ir['kept_preload'];
    $lines[] = '';
    $lines[] = sprintf('Where `kept_preload`\'s %s instructions per request go (the controls, instructions only): fetching the kept app'
        . ' (`Cache::keep()`) %s; serving "/" with it %s, of which %s is what serving it again in the same request costs (the app\'s own work,'
        . ' as a worker pays it per request) and %s the first run\'s (PHP filling the run-time caches of the code it runs, looking classes,'
        . ' methods and properties up by name); the rest, %s, PHP\'s request start and end and the front controller. Were `Cache::keep()`'
        . ' free, a request would take %s instructions, %.2fx `plain`\'s.',
        $k($ir['kept_preload']), $k($keep), $k($serve), $k($warm), $k($serve - $warm), $k($ir['control_keep_only'] - $keep),
        $k($ir['kept_preload'] - $keep), ($ir['kept_preload'] - $keep) / $ir['plain']);
}
if (in_array(16, $connections, true) && isset($ir['kept_preload']) && ($manifest['goal'] ?? true)) {
    $r = $med('kept_preload', 16) / $med('plain', 16);
    $i = $ir['kept_preload'] / $ir['plain'];
    $lines[] = '';
    $lines[] = 'Issue 25, Done-when 3 (kept-app + preload against plain php-fpm):';
    $lines[] = sprintf('- [%s] rps at 16 connections at least 1.6x: %.3fx', $r >= 1.6 ? 'met' : 'NOT MET', $r);
    $lines[] = sprintf('- [%s] instructions per request at most 0.5x: %.3fx', $i <= 0.5 ? 'met' : 'NOT MET', $i);
    $lines[] = '- [' . (($manifest['kept_code'] ?? '') === '' ? 'met' : 'not yet') . '] with the app as written'
        . (($manifest['kept_code'] ?? '') === '' ? ' (the kept configurations answer the same bodies as plain)' : ': ' . $manifest['kept_code']);
}
$table = implode("\n", $lines) . "\n";
@mkdir(dirname($opts['out']), 0777, true);
file_put_contents($opts['out'], $table);
echo "\n", $table;
fprintf(STDERR, "wrote %s\n", $opts['out']);
