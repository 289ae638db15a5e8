<?php
/*
 * A hot set under churn, under php-fpm: does eviction keep what is read?
 *
 * A php-fpm master (pm=static, 4 workers) per mode, with
 * resident.zero_copy=auto (requests borrow under php-fpm: each holds what
 * it fetched, and what is retired while it runs, until it ends) and with
 * resident.zero_copy=0 (requests copy) for comparison. Per mode and round,
 * on a fresh segment: 100 hot keys are stored once; 2 reader processes
 * issue requests that fetch all 100 and take 5 ms more, so that a request
 * that borrows is nearly always in flight, while a writer's requests store
 * distinct keys of 2-32 KB, 5 times resident.memory in all, paced over
 * --seconds. Reported: the hot set's hit rate, hits / (hits + misses) of
 * the reads made during the churn (a missed key is not stored again: the
 * rate is the share of the hot set that eviction kept, read after read),
 * the evictions, the stores refused, and status()['reader_waits'].
 *
 *   php8.2 -d extension=posix bench/eviction/run.php [--rounds=N] [--seconds=S] [--memory=MB] [--out=DIR] [--ext=resident.so]
 *
 * Writes DIR/eviction-latest.md.
 */
require dirname(__DIR__) . '/lib/Stack.php';

$opts = ['rounds' => 3, 'seconds' => 5, 'memory' => 32, 'out' => dirname(__DIR__) . '/results',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
const READERS = 2;
const CHURN = 5;              // times resident.memory
const WRITE_BATCH = 20;       // keys per writer request
const GOAL = 0.90;            // hot-set hit rate with borrowing readers
$memory = (int)$opts['memory'] << 20;
$modes = ['borrow' => 'resident.zero_copy=auto (requests borrow)', 'copy' => 'resident.zero_copy=0 (requests copy)'];
$app = __DIR__ . '/app.php';

/** One round of one mode on a fresh php-fpm master and segment. */
function churn(string $mode, string $app, array $opts, int $memory): array
{
    $stack = new Stack();
    $ini = ['memory_limit=256M', 'display_errors=stderr', 'log_errors=1', "extension={$opts['ext']}",
        "resident.memory={$opts['memory']}M", 'resident.zero_copy=' . ($mode === 'borrow' ? 'auto' : '0')];
    $stack->fpm($mode, '/', $app, $ini, [], READERS + 2);
    $stack->start('/?op=status', fn (?string $body) => is_array(json_decode((string)$body, true)));
    $seeded = json_decode((string)$stack->get('/?op=seed'), true);
    if ($seeded !== $mode) {
        Stack::fail("$mode: the workers ". ($seeded === null ? 'did not answer' : "are in $seeded mode"));
    }
    $stop = "{$stack->dir}/stop";
    $readers = [];
    for ($r = 0; $r < READERS; $r++) {
        $readers[] = proc_open([PHP_BINARY, '-n', __DIR__ . '/reader.php', $stack->url('/'), $stop],
            [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $out[] = $pipes[1];
    }
    $start = microtime(true);
    $bytes = $refused = $requests = 0;
    for ($from = 0; $bytes < CHURN * $memory; $from += WRITE_BATCH) {
        // Paced: the churn spreads over --seconds, the readers read all along.
        $due = $start + $opts['seconds'] * $bytes / (CHURN * $memory);
        if ($due > microtime(true)) {
            usleep((int)(1e6 * ($due - microtime(true))));
        }
        $answer = json_decode((string)$stack->get("/?op=write&from=$from&n=" . WRITE_BATCH), true);
        if (!is_array($answer)) {
            Stack::fail("$mode: a writer request failed:\n" . $stack->logs());
        }
        [$b, $r] = $answer;
        $bytes += $b;
        $refused += $r;
        $requests++;
    }
    $seconds = microtime(true) - $start;
    touch($stop);
    $hits = $misses = $readRequests = 0;
    foreach ($readers as $i => $proc) {
        [$h, $m, $n] = json_decode((string)stream_get_contents($out[$i]), true) ?? [0, 0, 0];
        proc_close($proc);
        $hits += $h;
        $misses += $m;
        $readRequests += $n;
    }
    $s = json_decode((string)$stack->get('/?op=status'), true);
    $stack->stop();
    return ['hit_rate' => $hits + $misses ? $hits / ($hits + $misses) : 0.0, 'reads' => $hits + $misses,
        'read_requests' => $readRequests, 'seconds' => $seconds, 'mb' => $bytes / 1048576, 'stores' => $from,
        'refused' => $refused, 'evictions' => $s['evictions'], 'reader_waits' => $s['reader_waits'] ?? 0,
        'entries' => $s['entries']];
}

$results = [];
for ($round = 0; $round < (int)$opts['rounds']; $round++) {
    $order = $round % 2 ? array_reverse(array_keys($modes)) : array_keys($modes);
    foreach ($order as $mode) {
        $r = churn($mode, $app, $opts, $memory);
        $results[$mode][] = $r;
        printf("round %d, %s: hot-set hit rate %.1f%% over %s reads in %.1f s, %.0f MB stored in %s keys (%s refused), %s evictions, %s waits for readers\n",
            $round + 1, $mode, 100 * $r['hit_rate'], number_format($r['reads']), $r['seconds'], $r['mb'],
            number_format($r['stores']), number_format($r['refused']), number_format($r['evictions']), number_format($r['reader_waits']));
    }
}

$med = fn (string $mode, string $k) => median(array_column($results[$mode], $k));
$lines = ['# A hot set under churn (php-fpm)', '', 'Command: `make bench` (or `php8.2 -n -d extension=posix bench/eviction/run.php`)', ''];
$lines[] = sprintf('%s, %s (%d cores), PHP %s, php-fpm (pm=static, %d workers) per mode, resident.memory=%dM, %d round(s), medians.',
    date('Y-m-d H:i'), gethostname(), (int)trim((string)shell_exec('nproc')), PHP_VERSION, READERS + 2, $opts['memory'], $opts['rounds']);
$lines[] = sprintf('%d reader processes fetch a hot set of 100 keys, stored once, per request (each request then takes 5 ms more, holding what it borrowed) while a writer stores distinct keys of 2-32 KB, %d x resident.memory in all (%d per request), over %s s.',
    READERS, CHURN, WRITE_BATCH, $opts['seconds']);
$lines[] = 'Hit rate: hits / (hits + misses) of the hot-set reads made during the churn; a missed key is not stored again.';
$lines[] = '';
$lines[] = '| mode | hot-set hit rate | lowest of the rounds | hot reads during the churn | churn | evictions | stores refused | waits for readers |';
$lines[] = '|---|---:|---:|---:|---:|---:|---:|---:|';
foreach ($modes as $mode => $label) {
    $lines[] = sprintf('| %s | %.1f%% | %.1f%% | %s | %.0f MB in %.1f s | %s | %s | %s |', $label, 100 * $med($mode, 'hit_rate'),
        100 * min(array_column($results[$mode], 'hit_rate')), number_format($med($mode, 'reads')), $med($mode, 'mb'),
        $med($mode, 'seconds'), number_format($med($mode, 'evictions')), number_format($med($mode, 'refused')),
        number_format($med($mode, 'reader_waits')));
}
$lowest = min(array_column($results['borrow'], 'hit_rate'));
$lines[] = '';
$lines[] = sprintf('Goal (hardening issue, item 7): with borrowing readers, the hot set keeps a hit rate of at least %d%%: [%s] %.1f%% in the worst round.',
    100 * GOAL, $lowest >= GOAL ? 'met' : 'NOT met', 100 * $lowest);
$md = implode("\n", $lines) . "\n";
@mkdir($opts['out'], 0777, true);
file_put_contents("{$opts['out']}/eviction-latest.md", $md);
echo "\n", $md;

