<?php
// Endpoint for the php-fpm integration tests: ?op=...
$c = Resident\Cache::pool('fpm');
header('X-Pid: ' . getmypid());
switch ($_GET['op'] ?? '') {
    case 'status':
        echo json_encode(Resident\Cache::status());
        break;
    case 'store':
        var_export($c->store($_GET['key'], $_GET['value']));
        break;
    case 'store_rich':     // an array and an object graph
        $c->store('rich:array', ['list' => range(1, 100), 'map' => ['a' => 1.5, 'b' => [true, null]]]);
        $o = new ArrayObject(['x' => 1]);
        $d = new DateTimeImmutable('2026-11-22 05:00:00', new DateTimeZone('Europe/Paris'));
        var_export($c->store('rich:object', ['when' => $d, 'box' => $o, 'same' => $o]));
        break;
    case 'fetch_rich':
        $a = $c->fetch('rich:array');
        $o = $c->fetch('rich:object');
        echo json_encode([
            'array' => is_array($a) ? array_sum($a['list']) . '|' . $a['map']['a'] : 'MISS',
            'object' => is_array($o) ? $o['when']->format('c e') . '|' . $o['box']['x'] . '|' . var_export($o['box'] === $o['same'], true) : 'MISS',
            'restored_at_start' => Resident\Cache::status()['restored_at_start'],
        ]);
        break;
    case 'fetch':
        echo json_encode($c->fetch($_GET['key'], 'MISS'));
        break;
    case 'store_list':
        var_export($c->store('list', range(1, 1000000)));
        break;
    case 'fetch_list':
        $first = $c->fetch('list');          // the request's first fetch sets up its read section
        $before = memory_get_usage();
        $l = $c->fetch('list');
        $again = $c->fetch('list');
        $growth = memory_get_usage() - $before;
        echo json_encode(['count' => count($l), 'growth' => $growth, 'last' => $l[999999], 'same' => $again === $first]);
        break;
    case 'churn':
        // Borrow, then replace a key many times within the same request: its
        // old versions must wait in limbo until this request ends.
        $c->store('churn', 'first');
        $borrowed = $c->fetch('churn');
        for ($i = 0; $i < (int)$_GET['n']; $i++) {
            $c->store('churn', str_repeat('x', 10000) . $i);
        }
        echo json_encode(Resident\Cache::status()['limbo_bytes']);
        break;
    case 'hold':
        // Borrow a value, then stay in the request (the test kills us meanwhile).
        $v = $c->fetch('held');
        file_put_contents($_GET['pidfile'], getmypid());
        sleep(30);
        echo strlen($v);
        break;
    case 'fill':
        // Distinct keys of ~100 KB until the segment is full (the first
        // eviction). Keys of one length: entries of one size, so that the
        // victim's block holds the next one whichever CLOCK takes (the
        // oldest, fill:0, had a shorter key than the latest).
        $n = 0;
        while (Resident\Cache::status()['evictions'] === 0) {
            $c->store(sprintf('fill:%05d', $n++), str_repeat('f', 100000));
        }
        echo json_encode(['stored' => $n, 'entries' => Resident\Cache::status()['entries']]);
        break;
    case 'store_pinned':
        var_export(Resident\Cache::pool('fpm-pinned', pinned: true)->store($_GET['key'], $_GET['value']));
        break;
    case 'hold_until':
        // Borrow a value (of a pinned pool: nothing to evict there), then
        // stay in the request until the release file appears.
        $v = Resident\Cache::pool('fpm-pinned', pinned: true)->fetch('held');
        file_put_contents($_GET['pidfile'], getmypid());
        for ($i = 0; $i < 2000 && !file_exists($_GET['release']); $i++) {
            usleep(10000);
        }
        echo strlen($v);
        break;
    case 'store_large':
        // Stores of ~100 KB, each with what it evicted and waited.
        $out = [];
        foreach (['large', 'large'] as $key) {
            $before = Resident\Cache::status();
            error_clear_last();
            $stored = @$c->store($key, str_repeat('l', 100000));
            $after = Resident\Cache::status();
            $out[] = ['stored' => $stored, 'evicted' => $after['evictions'] - $before['evictions'],
                'waits' => ($after['reader_waits'] ?? 0) - ($before['reader_waits'] ?? 0), 'entries' => $before['entries'],
                'limbo_bytes' => $after['limbo_bytes'], 'warning' => error_get_last()['message'] ?? null];
        }
        echo json_encode($out);
        break;
    default:
        http_response_code(400);
}
