<?php
/*
 * One request of the ZTS thread harness (tests/zts/harness.c). Every thread
 * of the process runs this many times against the same Resident segment.
 *
 * Globals set by the harness: $THREAD (-2 preflight, -1 final check, else
 * the worker's number), $REQUEST, $THREADS, $REQUESTS; with -s: $OPS
 * (operations per request, default 2000), $KEYS (shared keys, default 200).
 *
 * Values carry their key, the seed they were generated from and a CRC of
 * their payload; a read is corrupted unless it equals the value regenerated
 * from its seed. Some fetched values are held until the end of the request
 * and checked again: with resident.zero_copy=1 they are borrowed from the
 * segment, and must stay intact while other threads replace or delete their
 * keys.
 *
 * Prints one line:
 *   ok|BAD ops=N hits=N misses=N stores=N store_failures=N deletes=N bad=N held=N nomem=N
 * and "detail: ..." lines describing corrupted reads.
 */
declare(strict_types=1);

const ZTS_HOLD = 64;

/* RequestOverStatic across threads: every request finds a ledger that some
 * request (of any thread) left whole, checks it, and rewrites all of it. */
#[Resident\RequestOverStatic]
final class ZtsLedger
{
    public static int $version = 0;
    public static array $rows = [];

    public static function whole(): bool
    {
        foreach (self::$rows as $r) {
            if ($r !== ['v' => self::$version, 'tag' => 'v' . self::$version]) {
                return false;
            }
        }
        return count(self::$rows) === (self::$version ? 500 : 0);
    }

    public static function rewrite(int $version): void
    {
        self::$rows = array_fill(0, 500, ['v' => $version, 'tag' => "v$version"]);
        self::$version = $version;
    }
}
const ZTS_DETAILS = 5;

function zts_value(string $key, int $seed): array
{
    $r = new Random\Randomizer(new Random\Engine\Mt19937($seed));
    $kind = $seed % 4;
    if ($kind === 0) {
        // A plain string payload, sometimes large.
        $data = str_repeat(chr(65 + $seed % 26), $r->getInt(1, 3000)) . $r->getBytes($r->getInt(1, 64));
    } else {
        $n = $r->getInt(1, 40);
        $data = [];
        for ($i = 0; $i < $n; $i++) {
            $data[] = match ($r->getInt(0, 4)) {
                0 => str_repeat(chr(97 + $i % 26), $r->getInt(1, 200)),
                1 => $r->getInt(PHP_INT_MIN, PHP_INT_MAX),
                2 => $r->getInt(-1000000, 1000000) / 7,
                3 => [$i => $r->getBytes(8), 'b' => ($i & 1) === 1, 'n' => null],
                default => "s$i-$seed",
            };
        }
        if ($kind === 1) {
            // The same array twice: Resident stores it once and shares it.
            $shared = ['shared' => $r->getBytes(16), 'list' => range(0, $r->getInt(0, 20))];
            $data = ['a' => $shared, 'b' => $shared, 'items' => $data, 'tag' => "seed-$seed"];
        }
    }
    return ['key' => $key, 'seed' => $seed, 'data' => $data, 'crc' => crc32(serialize($data))];
}

/* Null when $v is intact, else what is wrong with it. */
function zts_check(string $key, mixed $v): ?string
{
    if (!is_array($v)) {
        return 'not an array but ' . get_debug_type($v);
    }
    if (!isset($v['key'], $v['seed'], $v['crc']) || !array_key_exists('data', $v) || !is_int($v['seed'])) {
        return 'fields missing: ' . implode(',', array_keys($v));
    }
    if ($v['key'] !== $key) {
        return "holds the value of key {$v['key']}";
    }
    if (crc32(serialize($v['data'])) !== $v['crc']) {
        return "checksum mismatch (seed {$v['seed']})";
    }
    if ($v !== zts_value($key, $v['seed'])) {
        return "differs from the value regenerated from seed {$v['seed']}";
    }
    return null;
}

$c = Resident\Cache::pool('zts');
$keys = (int)($KEYS ?? 200);
$ops = (int)($OPS ?? 2000);

if ($THREAD === -2) {
    $s = Resident\Cache::status();
    printf("preflight available=%d zero_copy=%s php=%s zts=%d debug=%d memory_size=%d slots_total=%d%s\n",
        $s['available'] ? 1 : 0, $s['zero_copy'] ?? 'none', PHP_VERSION, PHP_ZTS, PHP_DEBUG,
        $s['memory_size'] ?? 0, $s['slots_total'] ?? 0, isset($s['reason']) ? " reason={$s['reason']}" : '');
    return;
}

if ($THREAD === -1) {
    // Every worker thread has ended: nothing may be left in limbo, no
    // reader slot may still be claimed but ours, and every value is intact.
    $s = Resident\Cache::status();
    $bad = 0;
    $present = 0;
    for ($k = 0; $k < $keys; $k++) {
        $v = $c->fetch("k$k");
        if ($v !== null) {
            $present++;
            if (($err = zts_check("k$k", $v)) !== null) {
                $bad++;
                echo "detail: final k$k: $err\n";
            }
        }
    }
    $ros = $s['request_over_static'];
    if ($ros['publishes'] === 0 || $ros['restores'] === 0) {
        $bad++;
        echo "detail: RequestOverStatic never published or restored: ", json_encode($ros), "\n";
    }
    printf("final ros_publishes=%d ros_restores=%d bad=%d present=%d entries=%d limbo_bytes=%d limbo_entries=%d slots_used=%d stores=%d evictions=%d lock_waits=%d memory_used=%d\n",
        $ros['publishes'], $ros['restores'], $bad, $present, $s['entries'], $s['limbo_bytes'], $s['limbo_entries'], $s['slots_used'],
        $s['stores'], $s['evictions'], $s['lock_waits'], $s['memory_used']);
    return;
}

$nomem = 0;
set_error_handler(function (int $no, string $msg) use (&$nomem): bool {
    // Legitimate under pressure: borrowed values pin what they replace.
    if (str_contains($msg, 'No room for key')) {
        $nomem++;
        return true;
    }
    return false;
});

$rng = new Random\Randomizer(new Random\Engine\Xoshiro256StarStar(crc32("zts/$THREAD/$REQUEST")));
$hits = $misses = $stores = $storeFailures = $deletes = $bad = 0;
$details = [];
$held = [];
if (!ZtsLedger::whole()) {
    $bad++;
    $details[] = 'RequestOverStatic: the ledger came back torn, version ' . ZtsLedger::$version;
}
ZtsLedger::rewrite($THREAD * 100000 + $REQUEST + 1);

$corrupt = function (string $where, string $key, string $err) use (&$bad, &$details): void {
    $bad++;
    if (count($details) < ZTS_DETAILS) {
        $details[] = "$where $key: $err";
    }
};

for ($i = 0; $i < $ops; $i++) {
    $key = 'k' . $rng->getInt(0, $keys - 1);
    $roll = $rng->getInt(0, 99);
    if ($roll < 60) {
        $v = $c->fetch($key);
        if ($v === null) {
            $misses++;
            continue;
        }
        $hits++;
        if (($err = zts_check($key, $v)) !== null) {
            $corrupt('fetch', $key, $err);
            continue;
        }
        if ($roll < 3) {
            // Writing to a copy separates it; the fetched value must not change.
            $copy = $v;
            $copy['data'] = is_array($copy['data']) ? [...$copy['data'], 'extra'] : $copy['data'] . 'x';
            if (($err = zts_check($key, $v)) !== null) {
                $corrupt('after copy-on-write', $key, $err);
            }
            unset($copy);
        }
        if (count($held) < ZTS_HOLD) {
            $held[] = [$key, $v];
        } elseif ($rng->getInt(0, 9) === 0) {
            // Replacing drops a borrowed value mid-request.
            $held[$rng->getInt(0, ZTS_HOLD - 1)] = [$key, $v];
        }
    } elseif ($roll < 90) {
        $stores++;
        if (!$c->store($key, zts_value($key, $rng->getInt(1, PHP_INT_MAX)))) {
            $storeFailures++;
        }
    } else {
        $deletes++;
        $c->delete($key);
    }
}

// Held values: other threads replaced or deleted many of these keys since.
foreach ($held as [$key, $v]) {
    if (($err = zts_check($key, $v)) !== null) {
        $corrupt('held', $key, $err);
    }
}

restore_error_handler();
foreach ($details as $d) {
    echo "detail: $d\n";
}
printf("%s ops=%d hits=%d misses=%d stores=%d store_failures=%d deletes=%d bad=%d held=%d nomem=%d\n",
    $bad ? 'BAD' : 'ok', $ops, $hits, $misses, $stores, $storeFailures, $deletes, $bad, count($held), $nomem);
