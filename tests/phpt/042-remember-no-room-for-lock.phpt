--TEST--
remember(): when the cache has no room even for its single-flight lock (everything left is held by requests in flight), it computes at once instead of waiting for memory to come back
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.memory=2M
--FILE--
<?php
$c = Resident\Cache::pool('full');
$c->store('first', 'x');
$held = $c->fetch('first');   // this request now borrows: what is replaced stays in limbo until it ends
$i = 0;
while (@$c->store('k' . ($i % 50), str_repeat(chr(65 + $i % 26), 10000))) {
    $i++;
}
// And what is left, with small ones.
$j = 0;
while (@$c->store('s' . ($j % 50), $j)) {
    $j++;
}
echo "the cache is full of limbo after ", $i > 50 ? 'many' : 'few', " stores\n";
$t = microtime(true);
$v = $c->remember('report', fn () => 'computed');
var_dump($v);
var_dump(microtime(true) - $t < 1);
?>
--EXPECTF--
the cache is full of limbo after many stores

Warning: Resident\Cache::remember(): No room for Resident's own entry "%d:report" in pool (remember) (%d bytes): what is left is pinned or still read by requests in flight in %s on line %d

Warning: Resident\Cache::remember(): No room for key "report" (%d bytes): what is left is pinned or still read by requests in flight in %s on line %d
string(8) "computed"
bool(true)
