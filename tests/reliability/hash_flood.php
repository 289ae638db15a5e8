<?php
// Hash flooding: 100,000 keys that all collide under PHP's own string hash
// (DJBX33A: "Ez" and "FY" hash alike, so every string of 17 such blocks
// does) against 100,000 random keys of the same length. Storing and fetching
// the colliding ones must not be more than 2x slower: Resident's index
// hashes keys with SipHash under a per-segment random seed, and nothing on
// the way (a request-local lookup cache, fetchMultiple's result) may fall
// back to PHP's hash for a table that grows with the number of keys.
// (fetchMultiple() returns a PHP array keyed by the keys: 100 colliding keys
// in it cost PHP's own hash table as much as in userland, so what is
// compared is Resident's part, beyond building the same arrays in PHP.)
//
//   php -n -d extension=resident.so -d resident.enable_cli=1 -d resident.memory=128M \
//       hash_flood.php [KEYS] [ROUNDS]
// Prints its figures and "hash flood: N passed, N failed".

$n = (int)($argv[1] ?? 100000);
$rounds = (int)($argv[2] ?? 5);
$blocks = (int)ceil(log($n, 2));

/** The i-th string of $blocks blocks, each "Ez" or "FY": all share one DJBX33A hash. */
function colliding(int $i, int $blocks): string
{
    $s = '';
    for ($b = 0; $b < $blocks; $b++) {
        $s .= ($i >> $b) & 1 ? 'FY' : 'Ez';
    }
    return $s;
}

$flood = [];
$random = [];
mt_srand(42);
$alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
for ($i = 0; $i < $n; $i++) {
    $flood[] = colliding($i, $blocks);
    $k = '';
    for ($j = 0; $j < 2 * $blocks; $j++) {
        $k .= $alphabet[mt_rand(0, 61)];
    }
    $random[] = $k;
}

$failures = [];

// The keys really collide for PHP: a PHP array built from a few thousand of
// them is quadratic (kept small: 100,000 would take minutes).
$probe = 5000;
$phpFlood = $phpRandom = INF;
for ($r = 0; $r < 3; $r++) {     // best of 3: the random keys' array takes well under a millisecond
    foreach ([[$flood, &$phpFlood], [$random, &$phpRandom]] as [$keys, &$best]) {
        $t = hrtime(true);
        $a = [];
        foreach (array_slice($keys, 0, $probe) as $k) {
            $a[$k] = 1;
        }
        $best = min($best, (hrtime(true) - $t) / 1e9);
    }
    unset($best);
}
unset($a);
$phpRatio = $phpFlood / max($phpRandom, 1e-9);
if ($phpRatio < 20) {
    $failures[] = sprintf('the crafted keys do not collide for PHP (a PHP array of %d: %.1fx)', $probe, $phpRatio);
}

$fc = Resident\Cache::pool('flood');
$rc = Resident\Cache::pool('random');

function store_all(Resident\Cache $c, array $keys): float
{
    $t = hrtime(true);
    foreach ($keys as $i => $k) {
        if (!$c->store($k, $i)) {
            throw new RuntimeException("store failed for key $i");
        }
    }
    return (hrtime(true) - $t) / 1e9;
}

function fetch_all(Resident\Cache $c, array $keys): float
{
    $t = hrtime(true);
    foreach ($keys as $i => $k) {
        if ($c->fetch($k) !== $i) {
            throw new RuntimeException("wrong value for key $i");
        }
    }
    return (hrtime(true) - $t) / 1e9;
}

function misses_all(Resident\Cache $c, array $keys): float
{
    $t = hrtime(true);
    foreach ($keys as $k) {
        if ($c->exists($k . 'x')) {
            throw new RuntimeException('a key that was never stored exists');
        }
    }
    return (hrtime(true) - $t) / 1e9;
}

function fetch_multiple_all(Resident\Cache $c, array $keys): float
{
    // fetchMultiple() builds a PHP array keyed by the keys: 100 at a time,
    // as an application would, so PHP's own table stays small.
    $t = hrtime(true);
    foreach (array_chunk($keys, 100) as $chunk) {
        if (count($c->fetchMultiple($chunk)) !== count($chunk)) {
            throw new RuntimeException('fetchMultiple lost keys');
        }
    }
    return (hrtime(true) - $t) / 1e9;
}

/** PHP's own part of fetchMultiple(): arrays of the same 100 keys, built in userland. */
function php_arrays_all(array $keys): float
{
    $t = hrtime(true);
    foreach (array_chunk($keys, 100) as $chunk) {
        $a = [];
        foreach ($chunk as $i => $k) {
            $a[$k] = $i;
        }
    }
    return (hrtime(true) - $t) / 1e9;
}

try {
    // Interleaved, best of each, to tell the keys apart from the machine's noise.
    $best = ['store' => [INF, INF], 'fetch' => [INF, INF], 'miss' => [INF, INF], 'fetchMultiple' => [INF, INF], 'php' => [INF, INF]];
    for ($r = 0; $r < $rounds; $r++) {
        foreach ([[$fc, $flood, 0], [$rc, $random, 1]] as [$c, $keys, $which]) {
            $c->clear();
            $best['store'][$which] = min($best['store'][$which], store_all($c, $keys));
            $best['fetch'][$which] = min($best['fetch'][$which], fetch_all($c, $keys));
            $best['miss'][$which] = min($best['miss'][$which], misses_all($c, $keys));
            $best['fetchMultiple'][$which] = min($best['fetchMultiple'][$which], fetch_multiple_all($c, $keys));
            $best['php'][$which] = min($best['php'][$which], php_arrays_all($keys));
        }
    }
} catch (RuntimeException $e) {
    $failures[] = $e->getMessage();
}

$figures = [];
$php = $best['php'] ?? [0, 0];
unset($best['php']);
foreach ($best ?? [] as $op => [$f, $r]) {
    $ratio = $f / $r;
    $figure = sprintf('%s %.0f vs %.0f ns/key (%.2fx)', $op, $f / $n * 1e9, $r / $n * 1e9, $ratio);
    if ($op === 'fetchMultiple') {
        // The array it returns is PHP's own hash table keyed by the keys, and
        // 100 colliding keys in one cost PHP the same in userland: what is
        // Resident's is the time beyond building that array.
        $ratio = max($f - $php[0], 1e-9) / max($r - $php[1], $r / 10);
        $figure .= sprintf(', of which PHP building the arrays %.0f vs %.0f ns/key: Resident\'s part %.2fx',
            $php[0] / $n * 1e9, $php[1] / $n * 1e9, $ratio);
    }
    $figures[] = $figure;
    if ($ratio > 2) {
        $failures[] = sprintf('%s: colliding keys %.2fx slower than random ones', $op, $ratio);
    }
}
$s = Resident\Cache::status();
$entries = $fc->info()['entries'];
if ($entries !== $n) {
    $failures[] = "$entries colliding keys stored instead of $n";
}

foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("hash flood: %d keys of %d bytes colliding under DJBX33A (a PHP array of %d of them: %.0fx slower to build than of random keys); "
    . "Resident, best of %d rounds, colliding vs random: %s; %d buckets\n",
    $n, 2 * $blocks, $probe, $phpRatio, $rounds, implode(', ', $figures), $s['buckets']);
printf("hash flood: %d passed, %d failed\n", $failures ? 0 : 6, count($failures));
exit($failures ? 1 : 0);
