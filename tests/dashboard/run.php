<?php
/*
 * The dashboard in a real browser: PHP's built-in server with the extension
 * serves dashboard/resident-dashboard.php over a known cache state, headless
 * Chromium (Debian's chromium) renders it, the test reads the numbers from
 * the DOM it produced, and a screenshot goes to tests/artifacts/.
 *
 *   php8.2 tests/dashboard/run.php <resident.so>
 *
 * Prints one line per check and "dashboard: N passed, N failed".
 */
[$_, $ext] = $argv + [null, dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
$root = dirname(__DIR__, 2);
$dir = sys_get_temp_dir() . '/resident-dashboard-' . getmypid();
mkdir("$dir/www", 0777, true);
mkdir("$dir/chromium");
@mkdir("$root/tests/artifacts");
copy("$root/dashboard/resident-dashboard.php", "$dir/www/index.php");
file_put_contents("$dir/www/setup.php", <<<'PHP'
<?php
// A known state: 10 entries in "demo" (one of 200,000 bytes), a hot key read
// 6,400 times, a pinned pool of 3, and one RequestOverStatic snapshot.
#[Resident\RequestOverStatic]
final class DashDemo { public static int $n = 0; }
$demo = Resident\Cache::pool('demo');
for ($i = 1; $i <= 8; $i++) {
    $demo->store("small-$i", str_repeat('s', 100));
}
$demo->store('big', str_repeat('b', 200000));
$demo->store('hot', 'read me');
for ($i = 0; $i < 6400; $i++) {
    Resident\Cache::pool('demo')->fetch('hot');
}
$sessions = Resident\Cache::pool('sessions', pinned: true);
foreach (['a', 'b', 'c'] as $k) {
    $sessions->store("sess-$k", ['user' => $k]);
}
DashDemo::$n = 42;
echo "ready\n";
PHP);

$passed = $failed = 0;
function check(string $name, bool $ok, string $detail = ''): void
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    printf("%s %s%s\n", $ok ? 'PASS' : 'FAIL', $name, $ok || $detail === '' ? '' : ": $detail");
}

$port = 19000 + getmypid() % 1000;
$server = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'resident.memory=16M', '-S', "127.0.0.1:$port", '-t', "$dir/www"],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/server.log", 'w'], 2 => ['file', "$dir/server.log", 'a']], $pipes);
register_shutdown_function(function () use ($server, $dir) {
    proc_terminate($server);
    proc_close($server);
    exec('rm -rf ' . escapeshellarg($dir));
});
$get = fn (string $path) => @file_get_contents("http://127.0.0.1:$port$path");
for ($i = 0; $i < 50 && $get('/setup.php') !== "ready\n"; $i++) {
    usleep(100000);
}
$json = json_decode((string)$get('/index.php?json=1'), true);
check('the server is up and the state is set', is_array($json) && $json['status']['available'] === true,
    (string)@file_get_contents("$dir/server.log"));

// Chromium renders the page (scripts included) and prints the DOM.
$chromium = ['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
    "--user-data-dir=$dir/chromium", '--virtual-time-budget=5000'];
$run = function (array $args) use ($chromium): array {
    $proc = proc_open(array_merge($chromium, $args), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    return [proc_close($proc), $out, $err];
};
[$rc, $dom, $err] = $run(['--dump-dom', "http://127.0.0.1:$port/index.php"]);
check('headless Chromium renders the page', $rc === 0 && str_contains($dom, '<h1>Resident</h1>'), "exit $rc\n$err");

$doc = new DOMDocument();
@$doc->loadHTML($dom);
$xp = new DOMXPath($doc);
$metric = fn (string $name) => trim($xp->evaluate("string(//*[@data-metric='$name'])"));
$rows = function (string $table) use ($xp): array {
    $out = [];
    foreach ($xp->query("//table[@id='$table']//tr[td]") as $tr) {
        $out[] = array_map(fn ($td) => trim($td->textContent), iterator_to_array($xp->query('td', $tr)));
    }
    return $out;
};

// 10 in demo, 3 in sessions, 1 snapshot.
check('entries card', $metric('entries') === '14', $metric('entries'));
check('static snapshots card', $metric('snapshots') === '1', $metric('snapshots'));
check('hit rate card', $metric('hit_rate') !== '' && $metric('hit_rate') !== '–', $metric('hit_rate'));
$largest = $rows('largest');
check('largest entry: demo/big', ($largest[0][0] ?? '') === 'demo' && ($largest[0][1] ?? '') === 'big'
    && (int)str_replace(',', '', $largest[0][2] ?? '0') >= 200000, json_encode($largest[0] ?? null));
$hottest = $rows('hottest');
check('most read entry: demo/hot, about 6,400 reads', ($hottest[0][1] ?? '') === 'hot'
    && abs((int)str_replace(',', '', $hottest[0][2] ?? '0') - 6400) <= 640, json_encode($hottest[0] ?? null));
$pools = [];
foreach ($rows('pools') as $r) {
    $pools[$r[0]] = $r;
}
check('pools: demo with 10 entries, sessions pinned with 3', ($pools['demo'][1] ?? '') === '10'
    && ($pools['sessions'][1] ?? '') === '3' && ($pools['sessions'][7] ?? '') === 'yes', json_encode($pools));
check('RequestOverStatic snapshot of DashDemo', ($rows('snapshots')[0][0] ?? '') === 'class:dashdemo', json_encode($rows('snapshots')));
$rects = $xp->query("//*[local-name()='svg'][@id='memory-map']/*[local-name()='rect']")->length;
check('memory map drawn', $rects >= 160, "$rects rects");
$points = trim($xp->evaluate("string(//*[local-name()='svg'][@id='chart-hit-rate']/*[local-name()='polyline']/@points)"));
check('live chart drawn by the page\'s script', $points !== '', 'no points');
[$rc, $out, $err] = $run(['--screenshot=' . "$root/tests/artifacts/dashboard.png", '--window-size=1280,1900', "http://127.0.0.1:$port/index.php"]);
check('screenshot written to tests/artifacts/dashboard.png', $rc === 0 && @filesize("$root/tests/artifacts/dashboard.png") > 10000, "exit $rc\n$err");

printf("dashboard: %d passed, %d failed\n", $passed, $failed);
exit($failed ? 1 : 0);
