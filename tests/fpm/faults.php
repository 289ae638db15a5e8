<?php
/*
 * Fatal errors inside fetch() under php-fpm: the worker lives on to its
 * next request, so whatever the fetch held in the segment must be let go.
 * Called by run.php: returns the tests as name => [pool settings, fn(Fpm,
 * string $dir): [bool, or null when skipped, detail], workers, the master's
 * environment].
 */

function faults_call(Fpm $fpm, string $dir, string $query): array
{
    [, $body] = $fpm->client->get(__DIR__ . '/www/faults.php', $query . '&dir=' . urlencode($dir), 30.0);
    return [json_decode($body, true) ?? $body];
}

/* Which fatal error the i-th request dies of: each kind in turn, most of
 * them the cheap E_USER_ERROR. A borrowing fetch copies nothing, so only
 * one that copies can run into memory_limit while copying. */
function faults_kind(int $i, bool $copies): string
{
    return match (true) {
        $i % 100 === 50 => 'timeout',
        $i % 10 === 1 => 'compile',
        $i % 10 === 3 => $copies ? 'copy_memory' : 'memory',
        $i % 10 === 5 => 'memory',
        $i % 10 === 7 => 'remember',
        default => 'user_error',
    };
}

$faultsTest = fn (bool $copies) => function (Fpm $fpm, string $dir) use ($copies): array {
    [$setup] = faults_call($fpm, $dir, 'op=setup');
    $died = [];
    $survived = [];
    for ($i = 0; $i < 200; $i++) {
        $how = faults_kind($i, $copies);
        [$body] = faults_call($fpm, $dir, "op=fatal&how=$how");
        $expected = match ($how) {
            'user_error', 'remember' => 'Fatal error</b>:  boom in',
            'compile' => 'Fatal error</b>:  Cannot redeclare Unloadable::f()',
            'memory', 'copy_memory' => 'Fatal error</b>:  Allowed memory size of',
            'timeout' => 'Fatal error</b>:  Maximum execution time of 1 second exceeded',
        };
        if (!is_string($body) || !str_contains($body, $expected) || str_contains($body, 'survived')) {
            $survived[] = "$i:$how:" . substr(strip_tags((string)json_encode($body)), 0, 200);
        } else {
            $died[$how] = ($died[$how] ?? 0) + 1;
        }
    }
    // 40 MB of replaced values through a 16 MB segment: only if what the
    // fatal requests read is no longer pinned can the old versions go.
    [$stored] = faults_call($fpm, $dir, 'op=churn&n=400');
    [$status] = faults_call($fpm, $dir, 'op=status');
    $ok = $setup === [true, true, true] && !$survived && array_sum($died) === 200
        && $stored === 400 && $status['limbo_bytes'] === 0 && $status['slots_used'] === 1;
    return [$ok, json_encode(['setup' => $setup, 'died' => $died, 'survived' => $survived, 'stored' => $stored,
        'limbo_bytes' => $status['limbo_bytes'], 'slots_used' => $status['slots_used']])];
};

/* The worker's next requests store after a request ran out of
 * memory_limit while it wrote an object graph, without recovering a lock
 * left behind (a worker that deadlocked on itself and was killed would
 * leave one to the next). */
$oomTest = fn (int $children) => function (Fpm $fpm, string $dir) use ($children): array {
    [$version] = faults_call($fpm, $dir, 'op=version');
    if ($version < 80400) {
        // Debian's PHP 8.2 lets internal code run on past memory_limit
        // until control is back in PHP code: the store ends first.
        return [null, 'memory_limit must end internal code at once (the PHP 8.4 builds of make test run this)'];
    }
    $steps = [];
    [$steps['first']] = faults_call($fpm, $dir, "op=tree&n=$children&key=first");
    $died = [];
    for ($i = 0; $i < 10; $i++) {
        [$body] = faults_call($fpm, $dir, "op=tree&n=$children&key=second&oom=1");
        $died[] = is_string($body) && str_contains($body, 'Fatal error</b>:  Allowed memory size of');
    }
    for ($i = 0; $i < 10; $i++) {
        [$steps["store $i"]] = faults_call($fpm, $dir, "op=store&key=after$i&value=v$i");
    }
    [$status] = faults_call($fpm, $dir, 'op=status');
    [$check] = faults_call($fpm, $dir, 'op=check');
    $ok = !in_array(false, $steps, true) && !in_array(false, $died, true) && $status['entries'] === 12 && $check === ['problem' => null]
        && $status['recoveries'] === 0 && $status['dead_slots_cleared'] === 0;
    return [$ok, json_encode(['steps' => $steps, 'died' => $died, 'entries' => $status['entries'], 'check' => $check,
        'recoveries' => $status['recoveries'], 'dead_slots_cleared' => $status['dead_slots_cleared']])];
};

// Every allocation checked against memory_limit, so that the one the test
// aims at is the one that fails (USE_TRACKED_ALLOC needs USE_ZEND_ALLOC=0).
$trackedAlloc = ['USE_ZEND_ALLOC' => '0', 'USE_TRACKED_ALLOC' => '1'];

return [
    'copy mode: a fatal error inside fetch() 200 times in a row (E_USER_ERROR in __wakeup, max_execution_time, memory_limit, '
        . 'an autoloaded file that does not compile, through remember()) pins nothing: limbo drains and stores still succeed'
        => [['php_admin_value[resident.zero_copy]' => '0'], $faultsTest(true)],
    'borrow mode: the same' => [[], $faultsTest(false)],
    'memory_limit reached while a request writes an object graph in one pass (a small reservation, written under the lock before): '
        . 'the worker\'s next requests go on storing' => [[], $oomTest(100), 1, $trackedAlloc],
    'memory_limit reached while a request writes a large object graph outside the lock: its reservation is freed' => [[], $oomTest(400), 1, $trackedAlloc],
];
