<?php
// The endpoint fpm_wrk.php puts under load. op=mixed (nearly every request):
// reads and writes checksummed values (small ones written under the lock,
// ones over 16 KiB reserved under it and written outside it), a counter and
// remember(), verifying everything it reads; answers "ok" or "WRONG ...".
// op=slow_term: cache operations for 30 s, so php-fpm's
// request_terminate_timeout kills the worker in the middle of one.
// op=slow_fatal: a remember() whose $compute never ends, so PHP's own
// max_execution_time ends the request with a fatal error inside it, while
// op=mixed requests wait for that same key. op=hold, op=slow_hold and
// op=remember_staged stage 5xx before the run. op=verify: checks every key
// and consistency, answers "ok" and figures as JSON. op=status: the
// accounting. Requests with an id (rid=) journal what they do.
require __DIR__ . '/../../phpt/checksum.inc';

const KEYS = 400;
const SHARED = 8;

header('X-Pid: ' . getmypid());
$c = Resident\Cache::pool('wrk');
$wrong = [];

// The journal: a line (request id, time, phase) into a file of this worker
// before each cache operation and after it ("php": the endpoint's own
// work), written at once (an unbuffered write per line). When php-fpm kills
// a request, its last line says what it was doing and since when: what
// fpm_wrk.php attributes each 5xx with.
$rid = preg_match('/^[0-9]+-[0-9]+$/', $_GET['rid'] ?? '') ? $_GET['rid'] : null;
$journal = $rid !== null && isset($_SERVER['JOURNAL_DIR']) ? fopen($_SERVER['JOURNAL_DIR'] . '/' . getmypid(), 'a') : null;
function journal(string $phase): void
{
    global $journal, $rid;
    if ($journal) {
        fwrite($journal, sprintf("%s %.6f %s\n", $rid, microtime(true), $phase));
    }
}
register_shutdown_function(function () {
    $e = error_get_last();
    $fatal = $e !== null && ($e['type'] & (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR)) !== 0;
    journal($fatal ? 'end fatal ' . str_replace("\n", ' ', $e['message']) : 'end');
});
journal('begin ' . ($_GET['op'] ?? 'mixed'));
// A store, increment or remember() may fail for lack of room (memory held
// by requests in flight): false, or remember()'s computed value uncached,
// always with a warning. The warnings go to the log; a false without one is
// wrong.
$warned = 0;
set_error_handler(function (int $no, string $msg) use (&$warned) {
    $warned++;
    error_log("PHP Warning: $msg");
    return true;
}, E_WARNING);
function refused(mixed $result): bool
{
    global $warned;
    static $seen = 0;
    $new = $warned > $seen;
    $seen = $warned;
    return $result === false && !$new;
}

function big_value(int $seed): array
{
    $v = resident_checked_value($seed);
    $v['pad'] = str_repeat(chr(65 + $seed % 26), 17000 + $seed % 43000);
    $v['padcrc'] = crc32($v['pad']);
    return $v;
}

function value_ok_for($v, int $k, int $mod): bool
{
    if (!is_array($v)) {
        return false;
    }
    if (isset($v['pad'])) {
        if (crc32($v['pad']) !== $v['padcrc'] || strlen($v['pad']) !== 17000 + $v['seed'] % 43000) {
            return false;
        }
        unset($v['pad'], $v['padcrc']);
    }
    return resident_value_ok($v) && $v['seed'] % $mod === $k;
}

function new_value(int $k): array
{
    $seed = random_int(0, 1000000) * KEYS + $k;
    return random_int(0, 19) === 0 ? big_value($seed) : resident_checked_value($seed);
}

// Up to 20 s, until fpm_wrk.php creates the release file of that name.
function wait_for_release(string $name): void
{
    $file = dirname($_SERVER['JOURNAL_DIR']) . '/release-' . preg_replace('/[^a-z]/', '', $name);
    for ($i = 0; $i < 2000 && !file_exists($file); $i++) {
        usleep(10000);
    }
}

function shared_compute(int $k): array
{
    return resident_checked_value(random_int(0, 1000000) * SHARED + $k);
}

switch ($_GET['op'] ?? 'mixed') {
    case 'mixed':
        for ($i = 0; $i < 4; $i++) {
            $k = random_int(0, KEYS - 1);
            journal("fetch k:$k");
            $v = $c->fetch("k:$k");
            journal('php');
            if ($v !== null && !value_ok_for($v, $k, KEYS)) {
                $wrong[] = "k:$k held a wrong value";
            }
            if ($v === null || random_int(0, 9) === 0) {
                // False with a warning is allowed (memory held by readers in
                // flight); the warning goes to the log, not into the answer.
                $new = new_value($k);
                journal("store k:$k");
                $stored = $c->store("k:$k", $new);
                journal('php');
                if (refused($stored)) {
                    $wrong[] = "store(k:$k) returned false without a warning";
                }
            }
        }
        journal('increment requests');
        $n = $c->increment('requests');
        journal('php');
        if (refused($n) || ($n !== false && (!is_int($n) || $n < 1))) {
            $wrong[] = 'increment gave ' . var_export($n, true);
        }
        $k = random_int(0, SHARED - 1);
        journal("remember shared:$k");
        $r = $c->remember("shared:$k", function () use ($k) {
            journal("compute shared:$k");
            $v = shared_compute($k);
            journal("computed shared:$k");   // remember() stores it and releases the key
            return $v;
        }, ttl: 1);
        journal('php');
        if (!value_ok_for($r, $k, SHARED)) {
            $wrong[] = "remember(shared:$k) gave a wrong value";
        }
        break;

    case 'slow_term':
        // Killed by request_terminate_timeout somewhere in here.
        $end = microtime(true) + 30;
        $n = 0;
        while (microtime(true) < $end) {
            $k = random_int(0, KEYS - 1);
            $c->store("k:$k", new_value($k));
            $v = $c->fetch('k:' . random_int(0, KEYS - 1));
            $c->increment('requests');
            $c->remember('slow:' . random_int(0, 3), fn () => shared_compute(0), ttl: 1);
            $n++;
            usleep(1000);   // and some work of its own
        }
        break;

    case 'slow_fatal':
        // Fatal error (max_execution_time) inside a $compute, with the
        // single-flight lock of a key that op=mixed requests also remember.
        $k = random_int(0, SHARED - 1);
        $c->delete("shared:$k");
        set_time_limit(1);
        journal("remember shared:$k");
        $c->remember("shared:$k", function () use ($k) {
            journal("compute shared:$k");
            for ($x = 0;; $x++) {
                $x ^= crc32((string)$x) & 1;
            }
        }, ttl: 1);
        break;

    // Staged 5xx (fpm_wrk.php, before the run): op=hold occupies the
    // worker of its pool, op=slow_hold computes the remember() key "staged"
    // (in a pool with a long request_terminate_timeout), each until the
    // release file of that name appears; op=remember_staged is an ordinary
    // request that waits for that computation.
    case 'hold':
        wait_for_release($_GET['release'] ?? '');
        break;

    case 'slow_hold':
        journal('remember staged');
        $c->remember('staged', function () {
            journal('compute staged');
            wait_for_release($_GET['release'] ?? '');
            return 1;
        });
        journal('php');
        break;

    case 'remember_staged':
        journal('remember staged');
        $c->remember('staged', function () {
            journal('compute staged');
            return 2;
        });
        journal('php');
        break;

    case 'status':
        // Nothing fetched: this request holds nothing in limbo itself.
        // Writes (and these calls, which take the lock) retire expired
        // entries a share of the index at a time: the two figures are
        // compared once two status() around inspect() agree, that is once
        // nothing was retired between them.
        for ($try = 0; $try < 100; $try++) {
            $s = Resident\Cache::status();
            $pools = Resident\Cache::inspect(1, 1)['pools'];
            $again = Resident\Cache::status();
            if ([$s['memory_used'], $s['entries'], $s['limbo_bytes']] === [$again['memory_used'], $again['entries'], $again['limbo_bytes']]) {
                break;
            }
        }
        echo 'ok ', json_encode(['entries' => $s['entries'], 'memory_used' => $s['memory_used'],
            'pools_memory' => array_sum(array_column($pools, 'memory')), 'limbo_bytes' => $s['limbo_bytes'],
            'evictions' => $s['evictions'], 'recoveries' => $s['recoveries'], 'dead_slots_cleared' => $s['dead_slots_cleared']]), "\n";
        exit;

    case 'verify':
        $checked = 0;
        foreach (iterator_to_array($c->keys('k:'), false) as $key) {
            $k = (int)substr($key, 2);
            $v = $c->fetch($key);
            $checked++;
            if ($v !== null && !value_ok_for($v, $k, KEYS)) {
                $wrong[] = "$key held a wrong value";
            }
        }
        for ($k = 0; $k < SHARED; $k++) {
            $r = $c->remember("shared:$k", fn () => shared_compute($k), ttl: 1);
            if (!value_ok_for($r, $k, SHARED)) {
                $wrong[] = "remember(shared:$k) gave a wrong value";
            }
        }
        $check = class_exists('Resident\Testing') ? Resident\Testing::check() : null;
        if ($check !== null) {
            $wrong[] = "inconsistent: $check";
        }
        if (!$wrong) {
            echo 'ok ', json_encode(['keys' => $checked, 'requests' => $c->fetch('requests')]), "\n";
            exit;
        }
        break;
}

if ($wrong) {
    error_log('WRONG ' . implode('; ', $wrong));
    echo 'WRONG ', implode('; ', $wrong), "\n";
} else {
    echo "ok\n";
}
