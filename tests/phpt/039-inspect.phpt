--TEST--
Cache::inspect(): the heap by address adds up, the largest entries in order, the most read key first, pools, argument errors
--INI--
resident.enable_cli=1
resident.memory=8M
--FILE--
<?php
$c = Resident\Cache::pool('inspect');
for ($i = 1; $i <= 12; $i++) {
    $c->store("k$i", str_repeat('x', 1000 * $i), $i === 12 ? 300 : 0);
}
for ($i = 0; $i < 3200; $i++) {
    $c->fetch('k5');
}
$r = Resident\Cache::inspect(3, 64);
var_dump(array_keys($r));
var_dump(count($r['memory_map']), array_keys($r['memory_map'][0]));
$s = Resident\Cache::status();
$sum = ['live' => 0, 'free' => 0, 'limbo' => 0, 'reserved' => 0];
foreach ($r['memory_map'] as $cell) {
    foreach ($cell as $k => $v) {
        $sum[$k] += $v;
    }
}
var_dump($sum['live'] + $sum['limbo'] + $sum['reserved'] === $s['memory_used'], $sum['free'] === $s['memory_free'],
    array_sum($sum) === $s['memory_heap']);
echo implode(' ', array_column($r['largest'], 'key')), "\n";
var_dump($r['largest'][0]['ttl'] > 290 && $r['largest'][0]['ttl'] <= 300, $r['largest'][1]['ttl'], $r['largest'][0]['pool']);
var_dump($r['hottest'][0]['key'], $r['hottest'][0]['hits'] >= 3000 && $r['hottest'][0]['hits'] <= 3300);
foreach ($r['pools'] as $p) {
    if ($p['name'] === 'inspect') {
        var_dump($p['entries'], $p['hits'], $p['pinned']);
    }
}
var_dump($r['snapshots']);
foreach ([[0, 1], [1001, 1], [1, 0], [1, 70000]] as [$top, $cells]) {
    try {
        Resident\Cache::inspect($top, $cells);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
array(5) {
  [0]=>
  string(5) "pools"
  [1]=>
  string(9) "snapshots"
  [2]=>
  string(10) "memory_map"
  [3]=>
  string(7) "largest"
  [4]=>
  string(7) "hottest"
}
int(64)
array(4) {
  [0]=>
  string(4) "live"
  [1]=>
  string(4) "free"
  [2]=>
  string(5) "limbo"
  [3]=>
  string(8) "reserved"
}
bool(true)
bool(true)
bool(true)
k12 k11 k10
bool(true)
NULL
string(7) "inspect"
string(2) "k5"
bool(true)
int(12)
int(3200)
bool(false)
array(0) {
}
Resident\Cache::inspect(): Argument #1 ($top) must be between 1 and 1000
Resident\Cache::inspect(): Argument #1 ($top) must be between 1 and 1000
Resident\Cache::inspect(): Argument #2 ($cells) must be between 1 and 65536
Resident\Cache::inspect(): Argument #2 ($cells) must be between 1 and 65536
