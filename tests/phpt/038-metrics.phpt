--TEST--
Cache::metrics(): Prometheus text that a Prometheus parser (python3-prometheus-client) reads back with the numbers status() and info() report
--INI--
resident.enable_cli=1
--FILE--
<?php
$a = Resident\Cache::pool('orders');
$b = Resident\Cache::pool("we\"ird\\name");
for ($i = 0; $i < 5; $i++) {
    $a->store("o$i", str_repeat('x', 100 * $i));
}
$b->store('k', [1, 2, 3]);
$a->fetch('o1');
$a->fetch('o2');
$a->fetch('missing');
$a->delete('o4');

$text = Resident\Cache::metrics();
$parser = <<<'PY'
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        key = s.name + json.dumps(s.labels, sort_keys=True, separators=(",", ":"))
        out[key] = [family.type, s.value]
print(json.dumps(out))
PY;
$proc = proc_open(['/usr/bin/python3', '-c', $parser], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
fwrite($pipes[0], $text);
fclose($pipes[0]);
$parsed = json_decode(stream_get_contents($pipes[1]), true);
$err = stream_get_contents($pipes[2]);
proc_close($proc);
if (!is_array($parsed)) {
    exit("the parser refused the text:\n$err\n$text");
}
$get = fn (string $name, array $labels = []) => $parsed[$name . json_encode((object)$labels)] ?? null;

$s = Resident\Cache::status();
$info = $a->info();
var_dump($get('resident_up') === ['gauge', 1.0]);
var_dump($get('resident_entries')[1] === (float)$s['entries']);
var_dump($get('resident_memory_bytes', ['state' => 'used'])[1] === (float)$s['memory_used']);
var_dump($get('resident_memory_size_bytes')[1] === (float)$s['memory_size']);
var_dump($get('resident_stores_total') === ['counter', (float)$s['stores']]);
var_dump($get('resident_pool_entries', ['pool' => 'orders'])[1], $get('resident_pool_hits_total', ['pool' => 'orders'])[1],
    $get('resident_pool_misses_total', ['pool' => 'orders'])[1], $get('resident_pool_deletes_total', ['pool' => 'orders'])[1]);
var_dump($get('resident_pool_memory_bytes', ['pool' => 'orders'])[1] === (float)$info['memory']);
var_dump($get('resident_pool_entries', ['pool' => "we\"ird\\name"])[1]);
echo substr_count($text, "\n# TYPE "), " families, every line a comment or a sample: ",
    json_encode(preg_match_all('/^(# (HELP|TYPE) \S+ .+|[a-z_]+(\{[^\n]*\})? \d+)$/m', $text) === substr_count($text, "\n")), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
float(4)
float(2)
float(1)
float(1)
bool(true)
float(1)
24 families, every line a comment or a sample: true
