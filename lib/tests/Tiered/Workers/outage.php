<?php

/*
 * One long-lived process of OutageTest (a CLI worker, a queue consumer):
 * Tiered over its own phpredis client, for as long as the test runs.
 *
 *   php outage.php ID REDIS_PORT RECORDS STOP_FILE
 *
 * It alternates a write of its own key and a read of a key it keeps
 * locally, and writes one line per call to RECORDS:
 *   op t0 t1 cpu0 cpu1 queue0 queue1 ok served
 * (times in seconds: wall clock, on a CPU, waiting in the run queue, before
 * and after the call; ok: the write went through, or the read got the
 * value; served: the stats() counter the read moved). It stops when
 * STOP_FILE exists.
 */

declare(strict_types=1);

require dirname(__DIR__, 2) . '/autoload.php';

use Resident\Cache;
use Resident\Tests\Tiered\BlockedTime;
use Resident\Tiered;

[, $id, $port, $records, $stopFile] = $argv;

// The client's own timeouts are long: a call without a deadline of its own would wait this out.
$redis = new Redis();
$redis->connect('127.0.0.1', (int) $port, 5.0, null, 0, 5.0);
$local = Cache::pool("outage-$id");
$local->clear();
// A local TTL of a second: the read's copy goes stale within the outage, and is served stale.
$tiered = new Tiered($local, $redis, 'outage', localTtl: 1, staleTtl: 60);
$hot = "hot value of $id";
if (!$tiered->set("hot $id", $hot)) {
    fwrite(STDERR, "worker $id: the first write failed\n");
    exit(1);
}
$out = fopen($records, 'w');
fwrite($out, "ready\n");
fflush($out);

for ($i = 0; !file_exists($stopFile); $i++) {
    $write = $i % 2 === 0;
    $stats = $tiered->stats();
    $before = BlockedTime::sample();
    // After a restart Redis has lost everything: remember() puts the value back.
    $ok = $write ? $tiered->set("written by $id", $i) : $tiered->remember("hot $id", fn () => $hot) === $hot;
    $after = BlockedTime::sample();
    $served = '-';
    if (!$write) {
        foreach ($tiered->stats() as $counter => $count) {
            if (\in_array($counter, ['local_hits', 'stale_hits', 'shared_hits', 'misses'], true) && $count > $stats[$counter]) {
                $served = $counter;
            }
        }
    }
    fprintf($out, "%s %.6F %.6F %.6F %.6F %.6F %.6F %d %s\n", $write ? 'set' : 'get', $before[0], $after[0], $before[1], $after[1],
        $before[2], $after[2], $ok ? 1 : 0, $served);
    usleep(5000);
}
fclose($out);
