<?php
// The endpoint of bench/eviction/run.php. ?op=seed stores the hot set;
// ?op=read fetches all of it, then spends 5 ms on the rest of the request
// (a database, a template: what it borrowed stays held meanwhile), and
// answers its hits and misses (what it misses is not stored again: the hit
// rate is the share of the hot set that eviction kept); ?op=write stores n
// distinct keys from `from` on, of 2 to 32 KB; ?op=status: status().
$c = Resident\Cache::pool('bench');
const HOT = 100;

function hot_value(int $i): array
{
    return ['id' => $i, 'name' => "hot $i", 'tags' => range(1, 20), 'payload' => str_repeat(chr(97 + $i % 26), 1000)];
}

switch ($_GET['op'] ?? '') {
    case 'seed':
        for ($i = 0; $i < HOT; $i++) {
            $c->store("hot:$i", hot_value($i));
        }
        echo json_encode(Resident\Cache::status()['zero_copy']);
        break;
    case 'read':
        $hits = $misses = 0;
        for ($i = 0; $i < HOT; $i++) {
            $v = $c->fetch("hot:$i");
            if (is_array($v) && $v['id'] === $i) {
                $hits++;
            } else {
                $misses++;
            }
        }
        usleep(5000);
        echo json_encode([$hits, $misses]);
        break;
    case 'write':
        $bytes = $refused = 0;
        for ($k = (int)$_GET['from'], $end = $k + (int)$_GET['n']; $k < $end; $k++) {
            $size = 2000 + ($k * 7919) % 30000;
            $refused += @$c->store("churn:$k", str_repeat('w', $size)) ? 0 : 1;
            $bytes += $size;
        }
        echo json_encode([$bytes, $refused]);
        break;
    case 'status':
        echo json_encode(Resident\Cache::status());
        break;
    default:
        http_response_code(400);
}
