--TEST--
remember() across 4 processes: one computation per expiry, stale values served at once, a killed computer does not block the key
--EXTENSIONS--
pcntl
posix
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('flight');
$t0 = microtime(true);

/** Runs $fn in 4 processes started together; returns what each printed. */
function in_parallel(int $n, callable $fn): array
{
    $files = $pids = [];
    $go = microtime(true) + 0.2;
    for ($i = 0; $i < $n; $i++) {
        $files[$i] = tempnam(sys_get_temp_dir(), 'resident');
        if (($pid = pcntl_fork()) === 0) {
            // Started together when the machine lets them: under valgrind on
            // a loaded machine the forks can take longer than 0.2 s, and
            // time_sleep_until() warns about a time already passed.
            $wait = $go - microtime(true);
            if ($wait > 0) {
                usleep((int) ($wait * 1e6));
            }
            file_put_contents($files[$i], json_encode($fn($i)));
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    $out = [];
    foreach ($files as $f) {
        $out[] = json_decode(file_get_contents($f), true);
        unlink($f);
    }
    return $out;
}

// 1. A miss: exactly one of 4 concurrent callers computes, all get its value.
$results = in_parallel(4, function () use ($c) {
    return $c->remember('report', function () use ($c) {
        $c->increment('computations');
        usleep(300000);
        return 'computed by ' . getmypid();
    }, 1, 60);
});
var_dump($c->fetch('computations'), count(array_unique($results)));

// 2. After expiry, with a stale value: one caller recomputes, the others get
//    the stale value without waiting for it (they return before the
//    computation has finished: its marker file is not there yet).
usleep(1100000);
$done = tempnam(sys_get_temp_dir(), 'resident');
unlink($done);
$results = in_parallel(4, function () use ($c, $done) {
    $v = $c->remember('report', function () use ($c, $done) {
        $c->increment('computations');
        usleep(300000);
        touch($done);
        return 'refreshed';
    }, 1, 60);
    return [$v, file_exists($done)];
});
@unlink($done);
var_dump($c->fetch('computations'));
$stale = array_filter($results, fn($r) => $r[0] !== 'refreshed');
var_dump(count($stale));
echo "stale callers returned before the computation finished: ", json_encode(array_values(array_map(fn($r) => !$r[1], $stale))), "\n";

// 3. The computing process is killed: the key is not blocked for long.
$c->delete('report');
if (($pid = pcntl_fork()) === 0) {
    $c->remember('report', function () {
        sleep(60);
        return 'never';
    });
    exit(0);
}
usleep(300000);                          // it holds the compute lock now
posix_kill($pid, SIGKILL);
pcntl_waitpid($pid, $status);
$start = microtime(true);
var_dump($c->remember('report', fn() => 'after the kill'));
// Taken over as soon as the holder is seen dead, not after its 30 s lease.
echo microtime(true) - $start < 10 ? "not blocked by the dead holder\n" : "blocked until the lease ended\n";
?>
--EXPECT--
int(1)
int(1)
int(2)
int(3)
stale callers returned before the computation finished: [true,true,true]
string(14) "after the kill"
not blocked by the dead holder
