<?php
// Why each 5xx of fpm_wrk.php's run happened, from what nginx, php-fpm and
// the endpoint logged under the request's id (rid):
//
//  - nginx could not connect to php-fpm's socket because its listen queue
//    was full (EAGAIN): machine load, the request never reached PHP;
//  - php-fpm killed the request (request_terminate_timeout): the journal
//    (endpoint.php) says what it was doing and since when, and so where its
//    time went:
//      - 1 s or more (a third of the timeout) in cache operations, not
//        counting waits in remember() for a key that a deliberately slow
//        request was computing: caused by Resident (an operation takes
//        microseconds, and its own waits are bounded far below that);
//      - else, killed while waiting for such a computation: caused by the
//        deliberately slow request;
//      - else the time went to the rest of the request: machine load;
//  - a PHP fatal error in the request, or nothing that explains it: counted
//    as caused by Resident.
//
// attribute_5xx() returns one row per 5xx: rid, status, op, cause
// ('load', 'deliberate' or 'resident'), why, and the log lines it rests on.

const RESIDENT_STALL = 1.0;   // seconds in cache operations
// Requests slow on purpose; every other op is an ordinary request.
const DELIBERATE_OPS = ['slow_term', 'slow_fatal', 'slow_hold', 'hold'];

/**
 * Reads the journal (one file per worker, its requests one after the
 * other): the lines of the requests in $wanted, rid => [[time, phase]...],
 * and every remember() computation: key => [[rid, op, from, to]...], where
 * `to` is the request's next line, or, if it has none (killed), its start
 * plus what $killed says it ran, else INF. Streamed: a run journals
 * hundreds of thousands of lines.
 */
function journal_read(string $dir, array $wanted, array $killed): array
{
    $journal = $computing = [];
    foreach (glob("$dir/*") as $file) {
        $fh = fopen($file, 'r');
        $begin = $op = null;
        $open = null;   // [key, rid, op, from] of a computation without its next line yet
        $close = function (?float $t) use (&$open, &$computing, &$begin, $killed) {
            if ($open) {
                [$key, $rid, $op, $from] = $open;
                $to = $t ?? (isset($killed[$rid]) ? $begin + $killed[$rid][0] : INF);
                $computing[$key][] = [$rid, $op, $from, $to];
                $open = null;
            }
        };
        $current = null;
        while (($line = fgets($fh)) !== false) {
            $parts = explode(' ', rtrim($line, "\n"), 3);
            if (count($parts) !== 3) {
                continue;
            }
            [$rid, $t, $phase] = [$parts[0], (float)$parts[1], $parts[2]];
            if ($rid !== $current) {
                $close(null);   // the previous request ended without a next line
                $current = $rid;
                $begin = $t;
                $op = explode(' ', $phase)[1] ?? '?';
            }
            $close($t);
            if (str_starts_with($phase, 'compute ')) {
                $open = [substr($phase, 8), $rid, $op, $t];
            }
            if (isset($wanted[$rid])) {
                $journal[$rid][] = [$t, $phase];
            }
        }
        $close(null);
        fclose($fh);
    }
    return [$journal, $computing];
}

/** Lines of a log that name a request id: rid => lines. */
function lines_by_rid(string $file, string $filter = ''): array
{
    $out = [];
    $fh = @fopen($file, 'r');
    while ($fh && ($line = fgets($fh)) !== false) {
        if (($filter === '' || str_contains($line, $filter)) && preg_match('/[?&]rid=([0-9]+-[0-9]+)/', $line, $m)) {
            $out[$m[1]][] = rtrim($line);
        }
    }
    return $out;
}

/** The phases of a request: [phase, start, seconds], the last one until $until. */
function phases(array $events, float $until): array
{
    $out = [];
    foreach ($events as $i => [$t, $phase]) {
        $next = $events[$i + 1][0] ?? $until;
        $out[] = [$phase, $t, max(0.0, $next - $t)];
    }
    return $out;
}

function is_cache_operation(string $phase): bool
{
    return preg_match('/^(fetch|store|increment|remember|computed) /', $phase) === 1;
}

function attribute_5xx(string $dir, array $access): array
{
    $connect = lines_by_rid("$dir/nginx.log", 'connect() to unix:');
    $nginx = lines_by_rid("$dir/nginx.log");
    $killed = [];
    foreach (lines_by_rid("$dir/fpm.log", 'execution timed out') as $rid => $lines) {
        if (preg_match('/execution timed out \(([0-9.]+) sec\)/', $lines[0], $m)) {
            $killed[$rid] = [(float)$m[1], $lines[0]];
        }
    }
    $wanted = array_filter($access, fn ($a) => $a[0] >= 500);
    [$journal, $computing] = journal_read("$dir/journal", $wanted, $killed);

    $rows = [];
    foreach ($access as $rid => [$status, $op]) {
        if ($status < 500) {
            continue;
        }
        $events = $journal[$rid] ?? [];
        $evidence = $nginx[$rid] ?? [];
        $row = ['rid' => $rid, 'status' => $status, 'op' => $op];
        if (in_array($op, DELIBERATE_OPS, true)) {
            $rows[] = $row + ['cause' => 'deliberate', 'why' => 'a deliberately slow request', 'evidence' => $evidence];
            continue;
        }
        if (isset($connect[$rid]) && str_contains($connect[$rid][0], '(11: Resource temporarily unavailable)')) {
            $rows[] = $row + ['cause' => 'load', 'why' => "php-fpm's listen queue was full: nginx could not connect, PHP never saw the request",
                'evidence' => $connect[$rid]];
            continue;
        }
        if (isset($killed[$rid]) && $events) {
            [$seconds, $line] = $killed[$rid];
            $evidence[] = $line;
            $until = $events[0][0] + $seconds;
            $phases = phases($events, $until);
            foreach ($phases as [$phase, $start, $took]) {
                $evidence[] = sprintf('journal: +%.3f s %s (%.3f s)', $start - $events[0][0], $phase, $took);
            }
            // Waits in remember() for a key that a deliberately slow request
            // was computing are that request's doing; the rest of the time
            // in cache operations is Resident's.
            $waitedFor = null;
            $ownTime = 0.0;
            $longest = ['none', 0.0, 0.0];
            foreach ($phases as [$phase, $start, $took]) {
                if (!is_cache_operation($phase)) {
                    continue;
                }
                if (preg_match('/^remember (\S+)$/', $phase, $m)) {
                    foreach ($computing[$m[1]] ?? [] as [$holder, $holderOp, $from, $to]) {
                        if ($holder !== $rid && in_array($holderOp, DELIBERATE_OPS, true) && $from <= $start + $took && $to >= $start) {
                            $waitedFor = sprintf('%.3f s waiting in remember() for %s, which deliberately slow request %s (op=%s) was computing',
                                $took, $m[1], $holder, $holderOp);
                            continue 2;
                        }
                    }
                }
                $ownTime += $took;
                if ($took > $longest[2]) {
                    $longest = [$phase, $start, $took];
                }
            }
            if ($ownTime >= RESIDENT_STALL) {
                $rows[] = $row + ['cause' => 'resident', 'evidence' => $evidence,
                    'why' => sprintf('killed after %.3f s in the worker, %.3f s of them in cache operations (the longest, %s, %.3f s)',
                        $seconds, $ownTime, $longest[0], $longest[2])];
            } elseif ($waitedFor !== null) {
                $rows[] = $row + ['cause' => 'deliberate', 'evidence' => $evidence,
                    'why' => sprintf('killed after %.3f s in the worker, %s; %.3f s in other cache operations', $seconds, $waitedFor, $ownTime)];
            } else {
                $rows[] = $row + ['cause' => 'load', 'evidence' => $evidence,
                    'why' => sprintf('killed after %.3f s in the worker, %.3f s of them in cache operations (the longest, %s, %.3f s): the time went to the rest of the request, the machine was overloaded',
                        $seconds, $ownTime, $longest[0], $longest[2])];
            }
            continue;
        }
        $fatal = array_values(array_filter($events, fn ($e) => str_starts_with($e[1], 'end fatal')));
        $rows[] = $row + ['cause' => 'resident', 'evidence' => array_merge($evidence, array_map(fn ($e) => 'journal: ' . $e[1], $events)),
            'why' => $fatal ? 'a fatal error: ' . substr($fatal[0][1], 10) : 'nothing in the logs explains it'];
    }
    return $rows;
}
