<?php
/*
 * UserCache\Cache under a real php-fpm (docs/user-cache.md): what one worker
 * stores the others read, php-fpm pools do not see each other's entries, and
 * locks hold across workers. Called by run.php: returns name => fn(Fpm): [bool, detail];
 * each test gets a master of its own with two pools ("test" and "other"),
 * two workers each, sharing the master's segment.
 */

function usercache_call(FastCgi $client, string $query): array
{
    [$headers, $body] = $client->get(__DIR__ . '/www/usercache.php', $query, 30.0);
    return [json_decode($body, true) ?? $body, (int)($headers['x-pid'] ?? 0)];
}

function usercache_values(FastCgi $client, string $case, string $step)
{
    [, $body] = $client->get(__DIR__ . '/www/usercache_values.php', "case=$case&step=$step", 30.0);
    return json_decode($body, true) ?? $body;
}

/* Runs a case of www/usercache_values.php: the seeding request, then the
 * reading request $reads times; [ok, detail] against the expected answers. */
function usercache_values_case(Fpm $fpm, string $case, array $seeded, array $read, int $reads = 2): array
{
    $got = [usercache_values($fpm->client, $case, 'seed')];
    for ($i = 0; $i < $reads; $i++) {
        $got[] = usercache_values($fpm->client, $case, 'read');
    }
    return [$got === array_merge([$seeded], array_fill(0, $reads, $read)), json_encode($got)];
}

/* Starts a request in the background on the "test" pool; returns the process
 * (its own FastCGI connection) once the request has written its pid file. */
function usercache_background(Fpm $fpm, string $query, string $pidfile)
{
    $proc = proc_open([PHP_BINARY, '-n', '-r', sprintf('require %s; (new FastCgi(%s))->get(%s, %s, 60);',
        var_export(__DIR__ . '/FastCgi.php', true), var_export($fpm->dir . '/fpm.sock', true),
        var_export(__DIR__ . '/www/usercache.php', true), var_export($query, true))],
        [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    Fpm::waitForPid($pidfile);
    return $proc;
}

return [
    'UserCache: a value one worker stores, every worker reads' => function (Fpm $fpm) {
        [$stored] = usercache_call($fpm->client, 'op=store&key=shared&value=hello');
        $pids = [];
        $ok = $stored === true;
        for ($i = 0; $i < 30; $i++) {
            [$v, $pid] = usercache_call($fpm->client, 'op=fetch&key=shared');
            $ok = $ok && $v === 'hello';
            $pids[$pid] = true;
        }
        [$s] = usercache_call($fpm->client, 'op=status');
        return [$ok && count($pids) === 2 && $s['availability'] === 'Available' && $s['entries'] === ['shared'],
            json_encode([$stored, $ok, count($pids), $s])];
    },
    'UserCache: two php-fpm pools sharing a segment do not see each other\'s entries, even under the same pool name' => function (Fpm $fpm) {
        $other = $fpm->clients['other'];
        $results = [
            usercache_call($fpm->client, 'op=store&key=k&value=from-test')[0],
            usercache_call($other, 'op=fetch&key=k')[0],
            usercache_call($other, 'op=store&key=k&value=from-other')[0],
            usercache_call($fpm->client, 'op=fetch&key=k')[0],
            usercache_call($other, 'op=fetch&key=k')[0],
            usercache_call($other, 'op=clear')[0],
            usercache_call($fpm->client, 'op=fetch&key=k')[0],
            usercache_call($other, 'op=fetch&key=k')[0],
            usercache_call($fpm->client, 'op=status')[0]['entries'],
        ];
        return [$results === [true, 'MISS', true, 'from-test', 'from-other', true, 'from-test', 'MISS', ['k']], json_encode($results)];
    },
    'UserCache: a lock held by a request in one worker is refused to the other, and goes when that request ends' => function (Fpm $fpm) {
        $pidfile = $fpm->dir . '/holder.pid';
        $release = $fpm->dir . '/release';
        $bg = usercache_background($fpm, 'op=lock_and_hold&key=L&pidfile=' . urlencode($pidfile) . '&release=' . urlencode($release), $pidfile);
        $holder = (int)@file_get_contents($pidfile);
        [$during, $pid] = usercache_call($fpm->client, 'op=lock&key=L');
        [$cleared] = usercache_call($fpm->client, 'op=clear');
        touch($release);
        proc_close($bg);
        [$after] = usercache_call($fpm->client, 'op=lock&key=L');
        [$again] = usercache_call($fpm->client, 'op=lock&key=L');
        return [$holder > 0 && $pid !== $holder && $during === false && $cleared === false && $after === true && $again === true,
            json_encode(compact('holder', 'pid', 'during', 'cleared', 'after', 'again'))];
    },
    'UserCache: a lock of a worker killed while it held it is taken over' => function (Fpm $fpm) {
        $pidfile = $fpm->dir . '/holder.pid';
        $bg = usercache_background($fpm, 'op=lock_and_hold&key=K&pidfile=' . urlencode($pidfile) . '&release=' . urlencode($fpm->dir . '/never'), $pidfile);
        $holder = (int)@file_get_contents($pidfile);
        if ($holder <= 0) {
            // posix_kill(0, ...) would signal this runner's whole process group.
            proc_terminate($bg);
            proc_close($bg);
            return [false, 'the holding request never started: ' . @file_get_contents($pidfile)];
        }
        [$during] = usercache_call($fpm->client, 'op=lock&key=K');
        posix_kill($holder, SIGKILL);
        proc_close($bg);
        // php-fpm replaces the killed worker; any worker now takes the lock.
        [$after, $pid] = usercache_call($fpm->client, 'op=lock&key=K');
        return [$holder > 0 && $during === false && $after === true && $pid !== $holder, json_encode(compact('holder', 'during', 'after', 'pid'))];
    },
    'UserCache: a leased lock outlives its request, for every worker' => function (Fpm $fpm) {
        $results = [];
        [$results['taken'], $first] = usercache_call($fpm->client, 'op=lock&key=leased&lease=600');
        $pids = [];
        for ($i = 0; $i < 6; $i++) {
            [$v, $pid] = usercache_call($fpm->client, 'op=lock&key=leased');
            $results["again $i"] = $v;
            $pids[$pid] = true;
        }
        [$results['unleased'], ] = usercache_call($fpm->client, 'op=lock&key=unleased');
        [$results['unleased later'], ] = usercache_call($fpm->client, 'op=lock&key=unleased');
        $expected = ['taken' => true] + array_fill_keys(array_map(fn ($i) => "again $i", range(0, 5)), false) + ['unleased' => true, 'unleased later' => true];
        return [$results === $expected && count($pids) === 2, json_encode([$results, count($pids)])];
    },
    'UserCache: remember() from both workers at once computes once' => function (Fpm $fpm) {
        $log = $fpm->dir . '/computes.log';
        $query = 'op=remember&key=flight&log=' . urlencode($log);
        $procs = [];
        for ($i = 0; $i < 2; $i++) {
            $procs[] = proc_open([PHP_BINARY, '-n', '-r', sprintf('require %s; echo (new FastCgi(%s))->get(%s, %s, 60)[1];',
                var_export(__DIR__ . '/FastCgi.php', true), var_export($fpm->dir . '/fpm.sock', true),
                var_export(__DIR__ . '/www/usercache.php', true), var_export($query, true))],
                [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes[$i]);
        }
        $out = [];
        foreach ($procs as $i => $proc) {
            $out[] = stream_get_contents($pipes[$i][1]);
            proc_close($proc);
        }
        $computes = count(file($log, FILE_IGNORE_NEW_LINES));
        return [$out === ['"computed"', '"computed"'] && $computes === 1, json_encode([$out, $computes])];
    },
    'UserCache: object graphs, holes, shared objects and references read back whole by a later request, and its changes stay its own' => function (Fpm $fpm) {
        return usercache_values_case($fpm, 'graph', [true, true, true],
            ['Ada', 36, 7, '2026-06-15 09:30:00 UTC', 7, true, true, 5]);
    },
    'UserCache: DateTime, ArrayObject, SplFixedArray, SplQueue, SplPriorityQueue and DatePeriod subclasses read back by a later request' => function (Fpm $fpm) {
        return usercache_values_case($fpm, 'internal', [true],
            ['2026-06-15 09:30:00.250000 Europe/Paris', 'go:3', 'ms', 'NamedIterator', 80, 3, 'c', 'first', 'second',
                ['data' => 'high', 'priority' => 9], '01-01 01-02 01-03 01-04', '03-01 04-01 05-01', 'Window', 'sale', '02-01 02-02 02-03']);
    },
    'UserCache: store, storeMultiple and deleteMultiple across requests' => function (Fpm $fpm) {
        return usercache_values_case($fpm, 'multiple', [true, true, true],
            [41, 'hi', ['a' => 1, 'b' => [2, 3]], true, 'MISS', 'long-lived'], 1);
    },
    'UserCache: __unserialize runs at every fetch of every request' => function (Fpm $fpm) {
        return usercache_values_case($fpm, 'restore', [true], [5, 41]);
    },
    'UserCache: a value whose class a later request does not have is a miss there and its entry goes; an autoloader\'s exception reaches the caller and the entry stays' => function (Fpm $fpm) {
        return usercache_values_case($fpm, 'class_gone', [true, true, true, true],
            ['DEFAULT', false, 'no Unloadable here', true, 'no Unloadable here', [false, true]], 1);
    },
    'UserCache: objects read by a request whose class has a destructor run it, though the storing request\'s had none' => function (Fpm $fpm) {
        $expected = [['direct', 2, true], ['after delete', 2], ['inside', 4, true], ['after delete', 4]];
        $results = [];
        for ($i = 0; $i < 2; $i++) {
            $results[] = usercache_values($fpm->client, 'destructor', 'seed');
            $results[] = usercache_values($fpm->client, 'destructor', 'read');
        }
        return [$results === [[true, true], $expected, [true, true], $expected], json_encode($results)];
    },
    'UserCache: remember() keeps the result, not the callback: a later hit calls nothing, a miss after delete computes anew' => function (Fpm $fpm) {
        $results = [usercache_values($fpm->client, 'remember', 'seed'), usercache_values($fpm->client, 'remember', 'read'),
            usercache_values($fpm->client, 'remember', 'miss')];
        $first = ['token' => 'seed-token', 'position' => 12];
        return [$results === [[$first], [$first], ['fresh after delete']], json_encode($results)];
    },
];
