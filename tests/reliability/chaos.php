<?php
// Chaos: 4 worker processes do mixed operations (store, add, fetch, delete,
// increment, remember, storeMultiple/fetchMultiple, values large enough to
// be written outside the lock) on one segment, borrowing what they fetch,
// while this supervisor SIGKILLs a random one at a random moment, KILLS
// times, and starts a replacement. One replacement in ten also arms a
// Resident\Testing crash point, so deaths while holding the write lock at
// each of its delicate points are certain, not only likely.
//
// Checked: every value read by anyone is intact and belongs to its key;
// counters only go up; the workers never stop making progress (a hang after
// a death shows as a stall); at the end every surviving key verifies, the
// index is consistent, the memory the pools and limbo account for is all the
// memory in use (nothing leaked by the dead), limbo drains, and clearing
// everything leaves 0 bytes used.
//
//   php -n -d extension=resident.so -d resident.enable_cli=1 -d resident.testing=1 \
//       -d resident.zero_copy=1 -d resident.memory=32M chaos.php [KILLS] [WORKERS]
// Prints its figures and "chaos: N passed, N failed".
require __DIR__ . '/../phpt/checksum.inc';

const KEYS = 200;
const COUNTERS = 10;
const REMEMBERED = 20;

$kills = (int)($argv[1] ?? 1000);
$nworkers = (int)($argv[2] ?? 4);
$dir = sys_get_temp_dir() . '/resident-chaos-' . getmypid();
@mkdir($dir);
$stopFile = "$dir/stop";
$wrongFile = "$dir/wrong";

function value_for(int $k): array
{
    return resident_checked_value(mt_rand(0, 100000) * KEYS + $k);
}

function value_of_key($v, int $k): bool
{
    return resident_value_ok($v) && $v['seed'] % KEYS === $k;
}

function wrong(string $what): void
{
    global $wrongFile;
    file_put_contents($wrongFile, getmypid() . ": $what\n", FILE_APPEND | LOCK_EX);
}

function big_value(int $k): array
{
    // Over 16 KiB: reserved under the lock, written outside it.
    $v = resident_checked_value(mt_rand(0, 100000) * KEYS + $k);
    $v['pad'] = str_repeat(chr(65 + $k % 26), mt_rand(17000, 60000));
    $v['padcrc'] = crc32($v['pad']);
    return $v;
}

function big_ok($v, int $k): bool
{
    if (!is_array($v) || !isset($v['pad'])) {
        return value_of_key($v, $k);
    }
    $pad = $v['pad'];
    $copy = $v;
    unset($copy['pad'], $copy['padcrc']);
    return crc32($pad) === $v['padcrc'] && value_of_key($copy, $k);
}

const REQUEST_OPS = 2000;

function worker(string $stopFile): void
{
    mt_srand(getmypid() * 7919 + hrtime(true));
    $c = Resident\Cache::pool('chaos');
    $counters = Resident\Cache::pool('chaos-counters', pinned: true);
    $stats = Resident\Cache::pool('chaos-stats', pinned: true);
    set_error_handler(function (int $no, string $msg) use ($stats) {
        $stats->increment('warnings');
        if (!str_contains($msg, 'No room')) {
            wrong("warning: $msg");
        }
        return true;
    });
    $lastCount = [];
    $n = 0;
    // A CLI process is one request: what it borrows stays pinned until it
    // ends. Like a php-fpm worker with pm.max_requests, it ends after a
    // while (if it was not killed first) and a fresh one takes its place.
    while ($n < REQUEST_OPS) {
        $k = mt_rand(0, KEYS - 1);
        $r = mt_rand(0, 99);
        if ($r < 30) {
            $v = $c->fetch("k$k");
            if ($v !== null && !big_ok($v, $k)) {
                wrong("fetch k$k: " . substr(json_encode($v), 0, 200));
            }
        } elseif ($r < 48) {
            $c->store("k$k", value_for($k), mt_rand(0, 9) === 0 ? 1 : 0);
        } elseif ($r < 52) {
            $c->store("k$k", big_value($k));
        } elseif ($r < 56) {
            $c->add("k$k", value_for($k));
        } elseif ($r < 64) {
            $c->delete("k$k");
        } elseif ($r < 76) {
            $i = $k % COUNTERS;
            $x = $counters->increment("c$i", mt_rand(1, 3));
            if (!is_int($x) || $x <= ($lastCount[$i] ?? 0)) {
                wrong("increment c$i: " . var_export($x, true) . ' after ' . ($lastCount[$i] ?? 0));
            }
            $lastCount[$i] = is_int($x) ? $x : 0;
        } elseif ($r < 86) {
            $i = $k % REMEMBERED;
            $v = $c->remember("r$i", function () use ($i) {
                if (mt_rand(0, 3) === 0) {
                    usleep(mt_rand(100, 2000)); // a slow computation, sometimes killed
                }
                return value_for($i);
            }, mt_rand(0, 1));
            if (!value_of_key($v, $i)) {
                wrong("remember r$i: " . substr(json_encode($v), 0, 200));
            }
        } elseif ($r < 93) {
            $keys = [];
            for ($j = 0; $j < 5; $j++) {
                $keys[] = 'k' . mt_rand(0, KEYS - 1);
            }
            foreach ($c->fetchMultiple($keys) as $key => $v) {
                if (!big_ok($v, (int)substr($key, 1))) {
                    wrong("fetchMultiple $key");
                }
            }
        } elseif ($r < 97) {
            $values = [];
            for ($j = 0; $j < 4; $j++) {
                $kk = mt_rand(0, KEYS - 1);
                $values["k$kk"] = value_for($kk);
            }
            $c->storeMultiple($values);
        } else {
            $c->deleteMultiple(["k$k", 'k' . mt_rand(0, KEYS - 1)]);
        }
        if (++$n % 50 === 0) {
            $stats->increment('ops', 50);
            if (file_exists($stopFile)) {
                exit(0);
            }
        }
    }
    exit(0);
}

$crashPoints = ['holding_lock', 'after_alloc', 'after_link', 'after_unlink', 'in_free'];
$armed = 0;
function spawn(string $stopFile, array $crashPoints, int &$armed): int
{
    $arm = mt_rand(0, 9) === 0 ? $crashPoints[mt_rand(0, count($crashPoints) - 1)] : null;
    $armed += $arm !== null;
    $pid = pcntl_fork();
    if ($pid === 0) {
        if ($arm !== null) {
            usleep(mt_rand(0, 2000));
            Resident\Testing::crashAt($arm);
        }
        worker($stopFile);
        exit(0);
    }
    return $pid;
}

$failures = [];
$stats = Resident\Cache::pool('chaos-stats', pinned: true);
$start = microtime(true);
mt_srand(getmypid());
$pids = [];
for ($i = 0; $i < $nworkers; $i++) {
    $pids[$i] = spawn($stopFile, $crashPoints, $armed);
}
$killed = $selfKilled = $exitedOther = $recycled = 0;
$lastOps = 0;
$stalls = 0;
$lastProgress = microtime(true);
for ($kill = 0; $kill < $kills; $kill++) {
    usleep(mt_rand(100, 3000));
    // Workers that died at their crash point.
    foreach ($pids as $i => $pid) {
        if (pcntl_waitpid($pid, $status, WNOHANG) === $pid) {
            if (pcntl_wifsignaled($status) && pcntl_wtermsig($status) === SIGKILL) {
                $selfKilled++;
            } elseif (pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0) {
                $recycled++;
            } else {
                $exitedOther++;
                $failures[] = "worker $pid ended by itself: status $status";
            }
            $pids[$i] = spawn($stopFile, $crashPoints, $armed);
        }
    }
    $i = mt_rand(0, $nworkers - 1);
    posix_kill($pids[$i], SIGKILL);
    pcntl_waitpid($pids[$i], $status);
    $killed++;
    $recycled += pcntl_wifexited($status);
    $pids[$i] = spawn($stopFile, $crashPoints, $armed);
    // Progress: the operations counter keeps moving.
    if ($kill % 50 === 49) {
        // (status() borrows nothing: a fetch here would pin limbo for as
        // long as this process lives, since it never ends its request.)
        $ops = Resident\Cache::status()['stores'];
        if ($ops > $lastOps) {
            $lastOps = $ops;
            $lastProgress = microtime(true);
        } elseif (microtime(true) - $lastProgress > 5) {
            $stalls++;
            $failures[] = "no progress for 5 s after $kill kills ($ops stores)";
            break;
        }
    }
}
$chaosTime = microtime(true) - $start;

// Stop: every worker must notice and exit on its own.
touch($stopFile);
$deadline = microtime(true) + 10;
$stuck = 0;
foreach ($pids as $pid) {
    while (pcntl_waitpid($pid, $status, WNOHANG) === 0) {
        if (microtime(true) > $deadline) {
            $stuck++;
            posix_kill($pid, SIGKILL);
            pcntl_waitpid($pid, $status);
            break;
        }
        usleep(2000);
    }
}
if ($stuck) {
    $failures[] = "$stuck worker(s) stuck: did not stop within 10 s";
}

// Verification in a fresh process (it borrows; this one must not).
$verifyFile = "$dir/verify";
if (($pid = pcntl_fork()) === 0) {
    $c = Resident\Cache::pool('chaos');
    $bad = [];
    $live = 0;
    for ($k = 0; $k < KEYS; $k++) {
        $v = $c->fetch("k$k");
        if ($v !== null) {
            $live++;
            if (!big_ok($v, $k)) {
                $bad[] = "k$k corrupt";
            }
        }
    }
    for ($i = 0; $i < REMEMBERED; $i++) {
        $v = $c->fetch("r$i");
        if ($v !== null && !value_of_key($v, $i)) {
            $bad[] = "r$i corrupt";
        }
    }
    $counters = 0;
    for ($i = 0; $i < COUNTERS; $i++) {
        $v = Resident\Cache::pool('chaos-counters', pinned: true)->fetch("c$i");
        if (!is_int($v) || $v <= 0) {
            $bad[] = "c$i is " . var_export($v, true);
        } else {
            $counters += $v;
        }
    }
    $check = Resident\Testing::check();
    if ($check !== null) {
        $bad[] = "index inconsistent: $check";
    }
    $st = Resident\Cache::pool('chaos-stats', pinned: true);
    file_put_contents($verifyFile, json_encode([$bad, $live, $counters, (int)$st->fetch('ops', 0), (int)$st->fetch('warnings', 0)]));
    exit(0);
}
pcntl_waitpid($pid, $status);
[$bad, $live, $counterTotal, $ops, $warnings] = json_decode((string)@file_get_contents($verifyFile), true) ?? [['verifier died'], 0, 0, 0, 0];
array_push($failures, ...$bad);

$wrong = is_file($wrongFile) ? file($wrongFile, FILE_IGNORE_NEW_LINES) : [];
foreach (array_slice($wrong, 0, 20) as $w) {
    $failures[] = "wrong value seen by $w";
}

// Accounting after recovery. Reclamation is lazy (in batches, or when
// memory runs short, and a dead reader's slot is cleared once limbo reaches
// its epoch): clearing a scratch pool twice reclaims whatever can be. Then
// limbo must be empty (nobody is reading), and the pools (remember()'s lock
// pool too) must account for every byte in use.
$c = Resident\Cache::pool('chaos');
$scratch = Resident\Cache::pool('chaos-scratch');
for ($i = 0; $i < 2; $i++) {
    $scratch->store('x', 1);
    $scratch->clear();
}
$s = Resident\Cache::status();
$pooled = array_sum(array_column(Resident\Cache::inspect(1, 1)['pools'], 'memory'));
if ($pooled + $s['limbo_bytes'] !== $s['memory_used']) {
    $failures[] = sprintf('leak: pools hold %d bytes + limbo %d, but %d are used', $pooled, $s['limbo_bytes'], $s['memory_used']);
}
if ($s['limbo_bytes'] !== 0 || $s['limbo_entries'] !== 0) {
    $failures[] = sprintf('stuck limbo: %d bytes in %d entries with no reader alive', $s['limbo_bytes'], $s['limbo_entries']);
}
$c->clear();
$stats->clear();
Resident\Cache::pool('chaos-counters', pinned: true)->clear();
Resident\Cache::pool()->clear();
$end = Resident\Cache::status();
// What is left: remember()'s locks of computations that were killed (their
// 30 s lease has not run out yet).
$left = array_sum(array_column(Resident\Cache::inspect(1, 1)['pools'], 'memory'));
if ($end['memory_used'] !== $left || $end['limbo_bytes'] !== 0) {
    $failures[] = sprintf('after clear(): %d bytes used, %d of them by entries, %d limbo bytes', $end['memory_used'], $left, $end['limbo_bytes']);
}
if (Resident\Testing::check() !== null) {
    $failures[] = 'index inconsistent after clear: ' . Resident\Testing::check();
}
@unlink($stopFile);
@unlink($wrongFile);
@unlink($verifyFile);
@rmdir($dir);

foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("chaos: %d workers, %d SIGKILLs from the supervisor + %d deaths at armed crash points (%d armed) in %.1f s, %d workers recycled after %d operations; ~%d operations (%d stores refused for lack of room); "
    . "%d lock recoveries, %d dead reader slots cleared, %d evictions; %d wrong values; %d stuck; %d live keys verified at the end, counters total %d; "
    . "memory used before clear %d bytes (pools %d + limbo %d), after clear %d\n",
    $nworkers, $killed, $selfKilled, $armed, $chaosTime, $recycled, REQUEST_OPS, $ops, $warnings, $s['recoveries'], $s['dead_slots_cleared'], $s['evictions'], count($wrong), $stuck,
    $live, $counterTotal, $s['memory_used'], $pooled, $s['limbo_bytes'], $end['memory_used']);
$checks = 8;
printf("chaos: %d passed, %d failed\n", $failures ? 0 : $checks, $failures ? count($failures) : 0);
exit($failures ? 1 : 0);
