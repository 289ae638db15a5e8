<?php
// Pressure: values from 16 bytes up to the whole segment, then fragmentation
// churn (mixed sizes from 16 bytes to a quarter of the segment, deletes
// punching holes, TTLs, a hot set read all along, a pinned pool) until ten
// times the segment's memory has been stored.
//
// Checked: every store either succeeds or returns false with a warning
// (never a silent false, never an exception, never a crash); every value
// read is intact and is the last one stored under its key; a full cache
// evicts only what the new value needs, never everything (no wipe: each
// store's evictions are measured against its size); pinned entries are never
// evicted; the hot set stays cached (its hit rate is reported and must stay
// high); the index and allocator stay consistent; clearing leaves 0 bytes.
//
//   php -n -d extension=resident.so -d resident.enable_cli=1 -d resident.testing=1 \
//       -d resident.memory=16M pressure.php [SECONDS]
// Prints its figures and "pressure: N passed, N failed".

ini_set('memory_limit', '-1');   // values as large as the segment, twice
$seconds = (float)($argv[1] ?? 50);
$deadline = microtime(true) + $seconds;
$start = microtime(true);
mt_srand(20260522);

$status = Resident\Cache::status();
$memory = $status['memory_size'];
$heap = $status['memory_heap'];
$c = Resident\Cache::pool('pressure');
$pinned = Resident\Cache::pool('pressure-pinned', pinned: true);

$failures = [];
$checks = 0;
function fail(string $what): void
{
    global $failures;
    if (count($failures) < 50) {
        $failures[] = $what;
    }
}
function check(bool $ok, string $what): void
{
    global $checks;
    $checks++;
    if (!$ok) {
        fail($what);
    }
}

$warnings = [];
set_error_handler(function (int $no, string $msg) use (&$warnings) {
    $warnings[] = $msg;
    return true;
});

/** A string of $len bytes that only $seed gives. */
function payload(int $seed, int $len): string
{
    $unit = md5((string)$seed, true) . pack('N', $seed);
    return substr(str_repeat($unit, intdiv($len, 20) + 1), 0, $len);
}

/** A list of strings of about $len bytes in all (an array value). */
function array_payload(int $seed, int $len): array
{
    $n = max(1, intdiv($len, 100));
    $a = [];
    for ($i = 0; $i < $n; $i++) {
        $a[] = payload($seed + $i, 80);
    }
    return $a;
}

function digest($v): string
{
    return is_string($v) ? 's' . strlen($v) . ':' . crc32($v) : 'a' . crc32(serialize($v));
}

// The model: for each key, the digests it may hold now (null: absent).
// A successful store leaves exactly the new value (or, later, nothing: it
// may be evicted or expire); a failed one the old value or nothing.
$model = [];
// The values without a TTL that should be in the cache: name => [pool, key, size].
$present = [];
$stats = [
    'stores' => 0, 'stored_bytes' => 0, 'false_warned' => 0, 'too_big' => 0, 'no_room' => 0,
    'silent_false' => 0, 'evicting_stores' => 0, 'fetches' => 0, 'wrong' => 0,
    'hot_fetches' => 0, 'hot_hits' => 0, 'cold_fetches' => 0, 'cold_hits' => 0,
    'deletes' => 0, 'evict_needed' => 0, 'evict_freed' => 0, 'frag_peak' => 0.0, 'frag_sum' => 0.0, 'frag_samples' => 0,
];
// The worst store of a value up to an eighth of the heap, by the share of
// the cache's entries its evictions took.
$worst = ['share' => 0.0, 'entries' => 0, 'of' => 0, 'size' => 0, 'freed' => 0];

function try_store(Resident\Cache $pool, string $key, $value, int $size, int $ttl = 0): bool
{
    global $warnings, $model, $stats, $worst, $heap, $present;
    $name = $pool->name() . ':' . $key;
    $w = count($warnings);
    $before = Resident\Cache::status();
    try {
        $ok = $pool->store($key, $value, $ttl);
    } catch (Throwable $e) {
        fail("store $name ($size bytes) threw " . get_class($e) . ': ' . $e->getMessage());
        $ok = false;
    }
    $after = Resident\Cache::status();
    $new = array_slice($warnings, $w);
    $stats['stores']++;
    $d = digest($value);
    if ($ok) {
        check($new === [], "store $name returned true with a warning: " . implode('; ', $new));
        $stats['stored_bytes'] += $size;
        $model[$name] = [$d];
        unset($present[$name]);
        if ($after['evictions'] > $before['evictions']) {
            $stats['evicting_stores']++;
            // Which of the values known to be there (those without a TTL)
            // went, and how many bytes they held.
            $gone = 0;
            $bytes = 0;
            $largest = 0;
            foreach ($present as $n => [$p, $k, $s]) {
                if (!$p->exists($k)) {
                    unset($present[$n]);
                    $gone++;
                    $bytes += $s;
                    $largest = max($largest, $s);
                }
            }
            $share = $gone / max(1, count($present) + $gone);
            if ($share > $worst['share'] && count($present) + $gone >= 100 && $size <= $heap / 8) {
                $worst = ['share' => $share, 'entries' => $gone, 'of' => count($present) + $gone, 'size' => $size, 'freed' => $bytes];
            }
            $stats['evict_needed'] += $size;
            $stats['evict_freed'] += $bytes;
            // No wipe: a store evicts what CLOCK's round takes (its size,
            // passed by at most one victim) and, if that was scattered, one
            // window of neighbours (its size again, passed by at most one
            // entry): never more than twice its size and two entries.
            check($bytes <= 2 * $size + 2 * $largest + 65536,
                sprintf('a wipe: storing %s (%d bytes) evicted %d of %d values (%.2f MB, the largest %d bytes)',
                    $name, $size, $gone, count($present) + $gone, $bytes / 1048576, $largest));
        }
        if ($ttl === 0) {
            $present[$name] = [$pool, $key, $size];
        }
    } else {
        $stats['false_warned'] += $new ? 1 : 0;
        if (!$new) {
            $stats['silent_false']++;
            fail("store $name ($size bytes) returned false without a warning");
        } elseif (str_contains($new[0], 'the whole cache can hold')) {
            $stats['too_big']++;
        } else {
            $stats['no_room']++;
        }
        // The old value or nothing.
        $model[$name] = array_merge($model[$name] ?? [], [null]);
        unset($present[$name]);
    }
    return $ok;
}

/** Fetches and checks against the model. Returns whether it was a hit. */
function verify(Resident\Cache $pool, string $key): bool
{
    global $model, $stats;
    $name = $pool->name() . ':' . $key;
    $v = $pool->fetch($key, null);
    $stats['fetches']++;
    $d = $v === null ? null : digest($v);
    $allowed = $model[$name] ?? [null];
    // Anything unpinned may have been evicted or have expired.
    if (!$pool->info()['pinned']) {
        $allowed[] = null;
    }
    if (!in_array($d, $allowed, true)) {
        $stats['wrong']++;
        fail("fetch $name: " . ($d ?? 'missing') . ', expected ' . implode(' or ', array_map(fn($x) => $x ?? 'missing', $allowed)));
    } else {
        $checks = &$GLOBALS['checks'];
        $checks++;
    }
    if ($d !== null) {
        $model[$name] = [$d];     // what was read is what stays (or nothing)
    } else {
        unset($GLOBALS['present'][$name]);
    }
    return $d !== null;
}

// --- 1. sizes: 16 bytes to the whole segment, into a cache holding small entries
$filler = 0;
function fill_small(int $n): void
{
    global $c, $filler;
    for ($i = 0; $i < $n; $i++, $filler++) {
        try_store($c, "small:$filler", payload($filler, 200 + $filler % 800), 200 + $filler % 800);
    }
}
$sizes = [];
for ($s = 16; $s < $heap; $s *= 4) {
    $sizes[] = $s;
}
array_push($sizes, intdiv($heap, 2), $heap - 65536, $heap - 4096, $heap - 256, $heap, $heap + 1, 2 * $heap);
$sizeResults = [];
foreach ($sizes as $i => $size) {
    fill_small(300);
    $ok = try_store($c, "size:$i", payload(1000000 + $i, $size), $size);
    if ($ok) {
        verify($c, "size:$i");
    }
    $sizeResults[] = ($ok ? '' : '!') . ($size >= 1048576 ? round($size / 1048576, 2) . 'M' : ($size >= 1024 ? ($size >> 10) . 'K' : $size));
    if ($size > $heap) {
        check(!$ok, "a value of $size bytes, more than the heap ($heap), was stored");
    }
}
// As arrays too (an array of strings, up to half the segment).
for ($size = 1024; $size <= $heap / 2; $size *= 8) {
    $ok = try_store($c, "array:$size", array_payload(2000000 + $size, $size), $size);
    check($ok, "an array of about $size bytes could not be stored in a cache of $heap bytes");
    if ($ok) {
        verify($c, "array:$size");
    }
}
// The largest string that fits, by bisection, into an emptied cache.
$c->clear();
$model = [];
$present = [];
$lo = 0;
$hi = $heap + 1;
while ($hi - $lo > 64) {
    $mid = intdiv($lo + $hi, 2);
    if (try_store($c, 'largest', payload(3000000, $mid), $mid)) {
        $lo = $mid;
    } else {
        $hi = $mid;
    }
    $c->delete('largest');
    unset($present['pressure:largest']);
}
$largest = $lo;
check($largest >= $heap - 65536, "the largest storable string is $largest bytes, the heap $heap");
check(try_store($c, 'largest', payload(3000001, $largest), $largest), 'the largest string could not be stored again');
verify($c, 'largest');
$c->clear();
$model = [];
$present = [];

// --- 2. churn: ten times the segment's memory, mixed sizes, holes, TTLs, a hot set
$hot = 100;
$hotSize = [];
for ($i = 0; $i < $hot; $i++) {
    $hotSize[$i] = (int)(64 * (2 ** (mt_rand(0, 700) / 100)));  // 64 B .. 8 KiB
    try_store($c, "hot:$i", payload(4000000 + $i, $hotSize[$i]), $hotSize[$i]);
}
$pinnedKeys = 50;
for ($i = 0; $i < $pinnedKeys; $i++) {
    check(try_store($pinned, "p:$i", payload(5000000 + $i, 1000 + $i), 1000 + $i), "pinned p:$i not stored");
}
$coldKeys = 20000;
$seed = 6000000;
$target = 10 * $memory;
$ops = 0;
$churnStart = microtime(true);
$storedBefore = $stats['stored_bytes'];
while ($stats['stored_bytes'] - $storedBefore < $target) {
    if (microtime(true) > $deadline) {
        fail(sprintf('out of time after %.1f of the 10 segments of churn', ($stats['stored_bytes'] - $storedBefore) / $memory));
        break;
    }
    $ops++;
    $r = mt_rand(0, 99);
    if ($r < 40) {
        $i = mt_rand(0, $hot - 1);
        $stats['hot_fetches']++;
        if (verify($c, "hot:$i")) {
            $stats['hot_hits']++;
        } else {
            try_store($c, "hot:$i", payload(4000000 + $i, $hotSize[$i]), $hotSize[$i]);
        }
    } elseif ($r < 85) {
        $k = 'cold:' . mt_rand(0, $coldKeys - 1);
        $x = mt_rand(0, 999);
        if ($x === 0) {
            $size = mt_rand(intdiv($heap, 16), intdiv($heap, 4));   // big: a sixteenth to a quarter
        } elseif ($x < 11) {
            $size = mt_rand(65536, intdiv($heap, 16));
        } else {
            $size = (int)(16 * (2 ** (mt_rand(0, 1200) / 100)));     // 16 B .. 64 KiB, log-uniform
        }
        $ttl = mt_rand(0, 9) === 0 ? mt_rand(1, 2) : 0;
        $seed++;
        $value = ($x % 5 === 0 && $size <= 65536) ? array_payload($seed, $size) : payload($seed, $size);
        try_store($c, $k, $value, $size, $ttl);
    } elseif ($r < 95) {
        $k = 'cold:' . mt_rand(0, $coldKeys - 1);
        $stats['cold_fetches']++;
        if (verify($c, $k)) {
            $stats['cold_hits']++;
        }
    } else {
        $k = 'cold:' . mt_rand(0, $coldKeys - 1);
        $c->delete($k);
        unset($present["pressure:$k"]);
        $stats['deletes']++;
        $model["pressure:$k"] = [null];
    }
    if ($ops % 200 === 0) {
        $s = Resident\Cache::status();
        $stats['frag_peak'] = max($stats['frag_peak'], $s['fragmentation']);
        $stats['frag_sum'] += $s['fragmentation'];
        $stats['frag_samples']++;
    }
    if ($ops % 5000 === 0 && class_exists('Resident\Testing')) {
        check(($why = Resident\Testing::check()) === null, "inconsistent during churn: $why");
    }
}
$churnSeconds = microtime(true) - $churnStart;
$churned = ($stats['stored_bytes'] - $storedBefore) / $memory;

// --- 3. after: every key verifies, pinned entries all there, consistency, clear
foreach ([$c, $pinned] as $pool) {
    foreach (iterator_to_array($pool->keys(), false) as $k) {
        verify($pool, $k);
    }
}
for ($i = 0; $i < $pinnedKeys; $i++) {
    check($pinned->exists("p:$i"), "pinned p:$i was evicted");
    verify($pinned, "p:$i");
}
if (class_exists('Resident\Testing')) {
    check(($why = Resident\Testing::check()) === null, "inconsistent after the churn: $why");
}
$end = Resident\Cache::status();
$c->clear();
$pinned->clear();
$cleared = Resident\Cache::status();
check($cleared['entries'] === 0 && $cleared['memory_used'] === 0,
    "after clear: {$cleared['entries']} entries, {$cleared['memory_used']} bytes used");
check($stats['silent_false'] === 0, "{$stats['silent_false']} stores returned false without a warning");
$hotRate = $stats['hot_hits'] / max(1, $stats['hot_fetches']);
check($hotRate >= 0.9, sprintf('the hot set hit rate is %.1f%%', 100 * $hotRate));
restore_error_handler();

foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("pressure: segment %.0f MB (heap %d bytes); sizes stored (! = false with a warning): %s; largest string stored %d bytes (heap - %d)\n",
    $memory / 1048576, $heap, implode(' ', $sizeResults), $largest, $heap - $largest);
printf("pressure: churn of %.1fx the segment in %.1f s: %d operations, %d stores (%.0f MB), %d returned false with a warning (%d too big, %d no room), %d silently; "
    . "%d fetches, %d wrong; %d deletes; %d evictions and %d expirations by %d stores\n",
    $churned, $churnSeconds, $ops, $stats['stores'], $stats['stored_bytes'] / 1048576, $stats['false_warned'], $stats['too_big'], $stats['no_room'],
    $stats['silent_false'], $stats['fetches'], $stats['wrong'], $stats['deletes'], $end['evictions'], $end['expirations'], $stats['evicting_stores']);
printf("pressure: hot set (%d keys) hit rate %.1f%% of %d fetches; cold keys %.1f%% of %d; fragmentation mean %.1f%%, peak %.1f%%; "
    . "no wipe: the worst store (of a value up to 1/8 of the heap) evicted %d of %d values (%.1f%%, %.1f MB) for a value of %d bytes; evicting stores took %.2f bytes per byte stored; %d entries, %.1f MB at the end\n",
    $hot, 100 * $hotRate, $stats['hot_fetches'], 100 * $stats['cold_hits'] / max(1, $stats['cold_fetches']), $stats['cold_fetches'],
    100 * $stats['frag_sum'] / max(1, $stats['frag_samples']), 100 * $stats['frag_peak'],
    $worst['entries'], $worst['of'], 100 * $worst['share'], $worst['freed'] / 1048576, $worst['size'], $stats['evict_freed'] / max(1, $stats['evict_needed']),
    $end['entries'], $end['memory_used'] / 1048576);
printf("pressure: %d passed, %d failed\n", $checks - count($failures), count($failures));
exit($failures ? 1 : 0);
