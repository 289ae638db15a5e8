--TEST--
Churn through 5x the memory: no full wipe, a hot set keeps its hit rate, evictions are counted
--INI--
resident.enable_cli=1
resident.memory=8M
--FILE--
<?php
$c = Resident\Cache::pool('churn');
$hot = 100;
for ($i = 0; $i < $hot; $i++) {
    $c->store("hot:$i", str_repeat(chr(65 + $i % 26), 500 + $i));
}
$heap = Resident\Cache::status()['memory_heap'];
$written = 0;
$reads = $hits = 0;
$min_entries = PHP_INT_MAX;
for ($i = 0; $written < 5 * $heap; $i++) {
    $value = str_repeat('c', 300 + ($i * 37) % 4000);
    if (!$c->store("churn:$i", $value)) {
        echo "store failed at $i\n";
        break;
    }
    $written += strlen($value);
    if ($i % 10 === 0) {
        for ($j = 0; $j < 10; $j++) {
            $k = ($i / 10 + $j * 10) % $hot;
            $reads++;
            $v = $c->fetch("hot:$k");
            if ($v !== null) {
                $hits++;
                if ($v !== str_repeat(chr(65 + $k % 26), 500 + $k)) {
                    echo "hot:$k corrupted\n";
                }
            }
        }
        $min_entries = min($min_entries, $c->info()['entries']);
    }
}
$info = $c->info();
$rate = $hits / $reads;
printf("written %.1f MB through a %.1f MB cache\n", $written / 1048576, $heap / 1048576);
printf("hot-set hit rate %.1f percent\n", 100 * $rate);
var_dump($rate >= 0.90);
var_dump($info['evictions'] > 0, Resident\Cache::status()['evictions'] === $info['evictions']);
// Never emptied: the fewest entries ever seen is still more than the hot set.
var_dump($min_entries > $hot);
?>
--EXPECTF--
written %f MB through a %f MB cache
hot-set hit rate %f percent
bool(true)
bool(true)
bool(true)
bool(true)
