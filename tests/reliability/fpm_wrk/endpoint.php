<?php
// The endpoint fpm_wrk.php puts under load. op=mixed (nearly every request):
// reads and writes checksummed values (small ones written under the lock,
// ones over 16 KiB reserved under it and written outside it), a counter and
// remember(), verifying everything it reads; answers "ok" or "WRONG ...".
// op=slow_term: cache operations for 30 s, so php-fpm's
// request_terminate_timeout kills the worker in the middle of one.
// op=slow_fatal: a remember() whose $compute never ends, so PHP's own
// max_execution_time ends the request with a fatal error inside it, while
// op=mixed requests wait for that same key. op=verify: checks every key and
// consistency, answers "ok" and figures as JSON. op=status: the accounting.
require __DIR__ . '/../../phpt/checksum.inc';

const KEYS = 400;
const SHARED = 8;

header('X-Pid: ' . getmypid());
$c = Resident\Cache::pool('wrk');
$wrong = [];
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

function shared_compute(int $k): array
{
    return resident_checked_value(random_int(0, 1000000) * SHARED + $k);
}

switch ($_GET['op'] ?? 'mixed') {
    case 'mixed':
        for ($i = 0; $i < 4; $i++) {
            $k = random_int(0, KEYS - 1);
            $v = $c->fetch("k:$k");
            if ($v !== null && !value_ok_for($v, $k, KEYS)) {
                $wrong[] = "k:$k held a wrong value";
            }
            if ($v === null || random_int(0, 9) === 0) {
                // False with a warning is allowed (memory held by readers in
                // flight); the warning goes to the log, not into the answer.
                if (refused($c->store("k:$k", new_value($k)))) {
                    $wrong[] = "store(k:$k) returned false without a warning";
                }
            }
        }
        $n = $c->increment('requests');
        if (refused($n) || ($n !== false && (!is_int($n) || $n < 1))) {
            $wrong[] = 'increment gave ' . var_export($n, true);
        }
        $k = random_int(0, SHARED - 1);
        $r = $c->remember("shared:$k", fn () => shared_compute($k), ttl: 1);
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
        $c->remember("shared:$k", function () {
            for ($x = 0;; $x++) {
                $x ^= crc32((string)$x) & 1;
            }
        }, ttl: 1);
        break;

    case 'status':
        // Nothing fetched: this request holds nothing in limbo itself.
        $s = Resident\Cache::status();
        $pools = Resident\Cache::inspect(1, 1)['pools'];
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
