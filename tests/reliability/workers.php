<?php
// Independent workers on one named segment, as RoadRunner, Workerman or a
// queue's supervisor run them: WORKERS PHP processes started one by one with
// proc_open() (none forked from another, none from this supervisor's PHP),
// each attaching to the segment by its name (resident.segment), storing,
// fetching and incrementing under a quiescent point every few operations
// (Cache::endOfRequest(), so zero_copy=auto borrows). For SECONDS, this
// supervisor SIGKILLs a random worker at a random moment and starts a
// replacement, which attaches again.
//
// Checked: every value read by anyone carries a checksum of itself and
// belongs to its key (0 corrupted reads); every increment a worker saw
// return is in its append-only log, written after the call returned, so
// each counter ends between what was acknowledged and that plus the number
// of kills (a worker killed between the increment and its log line); no
// increment or store fails and nothing warns; the last replacements,
// started after all those deaths, attach and stop cleanly when asked; at
// the end, a fresh process finds the index consistent.
//
//   php -n workers.php SECONDS WORKERS EXTENSION
// Prints its figures and "workers: N passed, N failed".
require __DIR__ . '/../phpt/checksum.inc';

const KEYS = 100;
const COUNTERS = 4;
const QUIESCENT_EVERY = 25;

function worker(string $dir): void
{
    mt_srand(getmypid() * 7919 + hrtime(true));
    $c = Resident\Cache::pool('workers');
    $counters = Resident\Cache::pool('workers-counters', pinned: true);
    $acks = fopen("$dir/acks-" . getmypid(), 'a');
    $wrong = function (string $what) use ($dir) {
        file_put_contents("$dir/wrong", getmypid() . ": $what\n", FILE_APPEND | LOCK_EX);
    };
    set_error_handler(function (int $no, string $msg) use ($wrong) {
        $wrong("warning: $msg");
        return true;
    });
    // The first quiescent point: from here on zero_copy=auto borrows.
    Resident\Cache::endOfRequest();
    $ops = 0;
    while (!file_exists("$dir/stop")) {
        $k = mt_rand(0, KEYS - 1);
        $op = mt_rand(0, 9);
        if ($op < 3) {
            if (!$c->store("k$k", resident_checked_value(mt_rand(0, 100000) * KEYS + $k))) {
                $wrong("store of k$k failed");
            }
        } elseif ($op < 7) {
            $v = $c->fetch("k$k");
            if ($v !== null && !(resident_value_ok($v) && $v['seed'] % KEYS === $k)) {
                $wrong("corrupted read of k$k: " . substr(json_encode($v), 0, 200));
            }
            unset($v);
        } else {
            $j = $k % COUNTERS;
            $n = $counters->increment("c$j");
            if (!is_int($n)) {
                $wrong("increment of c$j returned " . var_export($n, true));
            } else {
                fwrite($acks, "$j\n");
            }
        }
        if (++$ops % QUIESCENT_EVERY === 0) {
            if (!Resident\Cache::endOfRequest()) {
                $wrong('endOfRequest() released nothing');
            }
            // Progress, read by the supervisor: replacements must work.
            file_put_contents("$dir/progress-" . getmypid(), (string)$ops);
        }
    }
    Resident\Cache::endOfRequest();
    exit(0);
}

function final_check(string $dir): void
{
    $bad = [];
    $c = Resident\Cache::pool('workers');
    for ($k = 0; $k < KEYS; $k++) {
        $v = $c->fetch("k$k");
        if ($v !== null && !(resident_value_ok($v) && $v['seed'] % KEYS === $k)) {
            $bad[] = "k$k corrupted at the end";
        }
    }
    $counters = Resident\Cache::pool('workers-counters', pinned: true);
    $final = [];
    for ($j = 0; $j < COUNTERS; $j++) {
        $final[$j] = $counters->fetch("c$j", 0);
    }
    if (($check = Resident\Testing::check()) !== null) {
        $bad[] = "index inconsistent: $check";
    }
    $s = Resident\Cache::status();
    echo json_encode(['bad' => $bad, 'final' => $final, 'recoveries' => $s['recoveries'], 'dead_slots' => $s['dead_slots_cleared'],
        'stores' => $s['stores'], 'hits' => $s['hits']]);
    exit(0);
}

if (($argv[1] ?? '') === 'worker') {
    worker($argv[2]);
}
if (($argv[1] ?? '') === 'check') {
    final_check($argv[2]);
}

$seconds = (float)($argv[1] ?? 30);
$nworkers = (int)($argv[2] ?? 4);
$extension = $argv[3] ?? '';
if (!is_file($extension)) {
    fwrite(STDERR, "usage: php workers.php SECONDS WORKERS PATH/TO/resident.so\n");
    exit(2);
}
$dir = sys_get_temp_dir() . '/resident-workers-' . getmypid();
@mkdir($dir, 0700);
$segment = 'reliability-workers-' . getmypid();
$php = [PHP_BINARY, '-n', '-d', "extension=$extension", '-d', 'resident.enable_cli=1', '-d', "resident.segment=$segment",
    '-d', 'resident.memory=16M', '-d', 'resident.testing=1'];

function start_worker(array $php, string $dir)
{
    $proc = proc_open([...$php, __FILE__, 'worker', $dir], [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/out", 'a'], 2 => ['file', "$dir/out", 'a']], $pipes);
    if (!is_resource($proc)) {
        fwrite(STDERR, "cannot start a worker\n");
        exit(2);
    }
    return $proc;
}

$failures = [];
$workers = [];
for ($i = 0; $i < $nworkers; $i++) {
    $workers[$i] = start_worker($php, $dir);
}
$kills = 0;
$t0 = microtime(true);
while (microtime(true) - $t0 < $seconds) {
    usleep(mt_rand(10000, 150000));
    $i = mt_rand(0, $nworkers - 1);
    proc_terminate($workers[$i], 9);
    proc_close($workers[$i]);
    $kills++;
    $workers[$i] = start_worker($php, $dir);
}
touch("$dir/stop");
foreach ($workers as $i => $proc) {
    // The exit code is told once, by the status call that sees the end.
    $deadline = microtime(true) + 30;
    while (($status = proc_get_status($proc))['running'] && microtime(true) < $deadline) {
        usleep(10000);
    }
    if ($status['running']) {
        $failures[] = "worker $i did not stop within 30 s of being asked";
        proc_terminate($proc, 9);
    } elseif ($status['exitcode'] !== 0) {
        // The last replacements attached after all those deaths and stop cleanly.
        $failures[] = "worker $i exited with {$status['exitcode']}";
    }
    proc_close($proc);
}
$elapsed = microtime(true) - $t0;

$result = json_decode((string)shell_exec(implode(' ', array_map('escapeshellarg', [...$php, __FILE__, 'check', $dir])) . ' 2>&1'), true);
if (!is_array($result)) {
    $failures[] = 'the final check died';
    $result = ['bad' => [], 'final' => array_fill(0, COUNTERS, 0), 'recoveries' => 0, 'dead_slots' => 0, 'stores' => 0, 'hits' => 0];
}
array_push($failures, ...$result['bad']);

$acked = array_fill(0, COUNTERS, 0);
$progress = 0;
foreach (glob("$dir/acks-*") as $file) {
    foreach (file($file, FILE_IGNORE_NEW_LINES) as $line) {
        $acked[(int)$line]++;
    }
}
foreach (glob("$dir/progress-*") as $file) {
    $progress += (int)file_get_contents($file);
}
for ($j = 0; $j < COUNTERS; $j++) {
    $final = $result['final'][$j];
    if ($final < $acked[$j] || $final > $acked[$j] + $kills) {
        $failures[] = "counter c$j is $final: not between the $acked[$j] increments acknowledged and $acked[$j] + $kills kills";
    }
}
$wrong = is_file("$dir/wrong") ? file("$dir/wrong", FILE_IGNORE_NEW_LINES) : [];
foreach (array_slice($wrong, 0, 20) as $w) {
    $failures[] = "seen by a worker: $w";
}
$out = is_file("$dir/out") ? trim(file_get_contents("$dir/out")) : '';
if ($out !== '') {
    $failures[] = 'workers printed: ' . substr($out, 0, 500);
}
foreach (glob("$dir/*") as $file) {
    unlink($file);
}
rmdir($dir);
@unlink("/dev/shm/resident-$segment");
@unlink("/dev/shm/resident-$segment.lock");

foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("workers: %d independent processes on segment %s for %.1f s, %d SIGKILLs and restarts; %d operations by workers up to their last quiescent point; "
    . "%d wrong reads or failed calls seen by workers; counters %s acknowledged %s; %d lock recoveries, %d dead reader slots cleared\n",
    $nworkers, $segment, $elapsed, $kills, $progress, count($wrong), json_encode($result['final']), json_encode($acked),
    $result['recoveries'], $result['dead_slots']);
$checks = 5;
printf("workers: %d passed, %d failed\n", $failures ? 0 : $checks, $failures ? count($failures) : 0);
exit($failures ? 1 : 0);
