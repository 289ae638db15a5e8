--TEST--
UserCache: an array held many times in a value (the same array, or the copies of one) is stored once; what is fetched is independent copies (a write to one row changes no other, nor the cache), with the next free index and -0.0 kept
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('shared-rows');
$row = ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, false, true], 'score' => 100];
$same = $distinct = [];
for ($i = 0; $i < 128; $i++) {
    $same[] = $row;
    $distinct[] = ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, false, true], 'score' => $i];
}
$bytes = function (array $rows) use ($c): int {
    $c->clear();
    $c->store('rows', $rows);
    return $c->getPoolStatus()->getUsedMemory();
};
// What the second 64 rows add (the entry and root array cost the same either way).
$sameCost = $bytes($same) - $bytes(array_slice($same, 0, 64));
$distinctCost = $bytes($distinct) - $bytes(array_slice($distinct, 0, 64));
var_dump($sameCost * 8 < $distinctCost);

$c->store('rows', $same);
$fetched = $c->fetch('rows');
var_dump($fetched === $same);
$fetched[3]['score'] = 999;
$fetched[3]['methods'][] = 'POST';
var_dump($fetched[4]['score'], count($fetched[4]['methods']), $c->fetch('rows')[3]['score']);

$sparse = [1, 2];
unset($sparse[1]);
$c->store('next-free', ['sparse' => $sparse, 'dense' => [1]]);
$f = $c->fetch('next-free');
$f['sparse'][] = 'x';
$f['dense'][] = 'y';
echo json_encode([array_keys($f['sparse']), array_keys($f['dense'])]), "\n";
$c->store('zeros', [[-0.0], [0.0]]);
$z = $c->fetch('zeros');
var_dump(fdiv(1, $z[0][0]), fdiv(1, $z[1][0]));
$c->store('with-object', [new stdClass(), $row, $row]);
$f = $c->fetch('with-object');
var_dump($f[1] === $row, $f[2] === $row);
?>
--EXPECT--
bool(true)
bool(true)
int(100)
int(1)
int(100)
[[0,2],[0,1]]
float(-INF)
float(INF)
bool(true)
bool(true)
