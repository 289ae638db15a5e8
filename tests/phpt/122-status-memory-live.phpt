--TEST--
Bytes per cached value: inspect()'s 'memory' is an entry's whole block, status()'s memory_live the live entries' blocks
--INI--
resident.enable_cli=1
resident.memory=8M
--FILE--
<?php
// An entry's block: a 96-byte header, the key and its NUL (to 16 bytes),
// then the value area (to 16 bytes).
$c = Resident\Cache::pool('bytes');
$c->store('int', 7);                       // area: a zval (16)
$c->store('str16', '0123456789abcdef');    // a zval, the string (24 + 17, to 48)
$c->store('list', [1, 2, 3]);              // a zval, the array (56), its hash slots (8) and 3 zvals (48)
$r = Resident\Cache::inspect(10, 1);
foreach ($r['largest'] as $e) {
    echo "$e[pool]/$e[key]: value area $e[bytes], block $e[memory]\n";
}
$s = Resident\Cache::status();
var_dump($s['memory_live'], $c->info()['memory'], $s['entries']);
// Every pool's entries, Resident's own included, add up to it.
var_dump(array_sum(array_column($r['pools'], 'memory')) === $s['memory_live']);
$c->delete('str16');
$c->store('int', 8);                       // replaced: the old block goes to limbo
$s = Resident\Cache::status();
var_dump($s['memory_live'], $s['entries'], $s['memory_used'] >= $s['memory_live']);
?>
--EXPECT--
bytes/list: value area 128, block 240
bytes/str16: value area 64, block 176
bytes/int: value area 16, block 128
int(544)
int(544)
int(3)
bool(true)
int(368)
int(2)
bool(true)
