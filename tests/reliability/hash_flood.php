<?php
// Hash flooding: keys that all collide under PHP's own string hash
// (DJBX33A: "Ez" and "FY" hash alike, so every string of such blocks does)
// against random keys of the same length. Resident's index hashes keys with
// SipHash under a per-segment random seed, and nothing on the way (the
// request-local lookup cache of a borrowing request, keys()) may fall back
// to PHP's hash for a table that grows with the number of keys.
//
// What is compared is exact: the instructions Resident's methods execute
// (callgrind, counting only inside Resident\Cache's methods and the key
// iterator's), which do not move with the machine's load. Each case runs in
// one request, in borrow and in copy mode; colliding keys may cost at most
// 2x random ones.
//
//   php -n -d extension=posix hash_flood.php <resident.so> [KEYS]
// Prints its figures and "hash flood: N passed, N failed".

if (($argv[1] ?? '') === '--child') {
    // The measured request: $argv[2] flood|random, $argv[3] keys.
    [, , $set, $n] = $argv;
    $n = (int)$n;
    $blocks = (int)ceil(log($n, 2));
    $built = [];
    mt_srand(42);
    $alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    for ($i = 0; $i < $n; $i++) {
        $k = '';
        for ($b = 0; $b < $blocks; $b++) {
            $k .= $set === 'flood' ? (($i >> $b) & 1 ? 'FY' : 'Ez') : $alphabet[mt_rand(0, 61)] . $alphabet[mt_rand(0, 61)];
        }
        $built[] = $k;
    }
    // The same keys as literals of compiled code, which PHP interns (what a
    // borrowing request remembers), and as strings made at run time.
    $file = tempnam(sys_get_temp_dir(), 'keys');
    file_put_contents($file, '<?php return ' . var_export($built, true) . ';');
    $literal = require $file;
    unlink($file);
    foreach (['literal' => $literal, 'built' => $built] as $kind => $keys) {
        $c = Resident\Cache::pool($kind);
        foreach ($keys as $i => $k) {
            $c->store($k, $i) || exit("$kind: store failed for key $i\n");
        }
        foreach ($keys as $i => $k) {
            $c->fetch($k) === $i || exit("wrong value for key $i\n");
        }
        foreach ($keys as $i => $k) {
            $c->fetch($k) === $i || exit("wrong value for key $i on the second fetch\n");
        }
        foreach ($keys as $k) {
            $c->exists($k . 'x') && exit("a key that was never stored exists\n");
        }
        $seen = 0;
        foreach ($c->keys() as $k) {
            $seen++;
        }
        $seen === $n || exit("keys() gave $seen keys instead of $n\n");
    }
    echo "ok\n";
    exit(0);
}

$ext = $argv[1] ?? dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so';
$n = (int)($argv[2] ?? 16384);
$failures = [];
$figures = [];
$checks = 0;

/* Instructions executed inside Resident's methods for one run. */
function instructions(string $ext, string $mode, string $set, int $n, array &$failures): int
{
    $out = tempnam(sys_get_temp_dir(), 'flood');
    $cmd = ['valgrind', '--tool=callgrind', "--callgrind-out-file=$out", '--collect-atstart=no',
        '--toggle-collect=zim_Resident_Cache_*', '--toggle-collect=zim_Resident_KeyIterator_*',
        PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'resident.enable_cli=1', '-d', "resident.zero_copy=$mode",
        '-d', 'resident.memory=64M', __FILE__, '--child', $set, (string)$n];
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $stdout = stream_get_contents($pipes[1]);
    $stderr = stream_get_contents($pipes[2]);
    $rc = proc_close($proc);
    $total = 0;
    foreach (file($out) ?: [] as $line) {
        if (preg_match('/^summary: (\d+)/', $line, $m)) {
            $total = (int)$m[1];
        }
    }
    @unlink($out);
    if ($rc !== 0 || trim($stdout) !== 'ok' || $total === 0) {
        $failures[] = "$set keys, zero_copy=$mode: the run failed (exit $rc): " . trim($stdout) . ' ' . substr($stderr, -500);
    }
    return $total;
}

// The keys really collide for PHP: a PHP array of a few thousand of them
// is quadratic. (Counted as work, not time: each insert walks the chain.)
$blocks = (int)ceil(log($n, 2));
$a = [];
for ($i = 0; $i < 2000; $i++) {
    $k = '';
    for ($b = 0; $b < $blocks; $b++) {
        $k .= ($i >> $b) & 1 ? 'FY' : 'Ez';
    }
    $a[$k] = true;
}
$hashes = [];
foreach (array_keys($a) as $k) {
    // DJBX33A as PHP computes it, modulo 2^32 (keys that collide in 64 bits
    // collide there too).
    $h = 5381;
    for ($j = 0, $len = strlen($k); $j < $len; $j++) {
        $h = ($h * 33 + ord($k[$j])) & 0xffffffff;
    }
    $hashes[$h] = true;
}
$checks++;
if (count($hashes) !== 1) {
    $failures[] = 'the crafted keys do not share one DJBX33A hash: ' . count($hashes) . ' hashes for 2,000 keys';
}

foreach (['1' => 'borrow', '0' => 'copy'] as $mode => $name) {
    $flood = instructions($ext, (string)$mode, 'flood', $n, $failures);
    $random = instructions($ext, (string)$mode, 'random', $n, $failures);
    $ratio = $flood / max($random, 1);
    $figures[] = sprintf('%s: %.0f vs %.0f instructions per key (%.2fx)', $name, $flood / $n, $random / $n, $ratio);
    $checks++;
    if ($ratio > 2) {
        $failures[] = sprintf('%s mode: colliding keys cost %.2fx the instructions of random ones', $name, $ratio);
    }
}

foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("hash flood: %d keys of %d bytes colliding under DJBX33A, store + 2 fetches + a miss each + keys(), in one request, "
    . "instructions inside Resident (callgrind), colliding vs random: %s\n", $n, 2 * $blocks, implode('; ', $figures));
printf("hash flood: %d passed, %d failed\n", $checks - count($failures), count($failures));
exit($failures ? 1 : 0);
