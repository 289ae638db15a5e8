--TEST--
Arrays: fetched small arrays, shared with the cache or copied out of an object graph, grow, change and convert (packed to hash) like any array, and the stored value stays as it was
--INI--
resident.enable_cli=1
--FILE--
<?php
class Holder
{
    public $list;
    public $map;
    public $obj;
}

$c = Resident\Cache::pool('small');
$ops = [
    'append' => function (array $a) { for ($i = 0; $i < 20; $i++) { $a[] = $i; } return $a; },
    'string keys' => function (array $a) { for ($i = 0; $i < 20; $i++) { $a["k$i"] = $i; } return $a; },
    'unset, then append' => function (array $a) { foreach (array_keys($a) as $k) { unset($a[$k]); break; } $a[] = 'x'; $a[] = 'y'; return $a; },
    'far index' => function (array $a) { $a[1000] = 'far'; $a[] = 'next'; return $a; },
    'sort' => function (array $a) { $a[] = -1; $a['z'] = 99; sort($a); return $a; },
    'ksort' => function (array $a) { $a['a'] = 0; krsort($a); return $a; },
    'by reference' => function (array $a) { foreach ($a as &$v) { $v = [$v]; } unset($v); $a[] = 'r'; return $a; },
    'array functions' => function (array $a) {
        return [array_merge($a, $a), array_reverse($a, true), array_slice($a, 1), array_pad($a, 12, 0),
            array_flip(array_map('strval', array_values($a))), array_splice($a, 0, 1, ['s', 't']), $a];
    },
    'nested write' => function (array $a) { $a['n']['m'][] = 1; $a['n']['m'][] = 2; return $a; },
];
$shapes = [];
for ($n = 1; $n <= 9; $n++) {
    $shapes["list of $n"] = range(1, $n);
    $shapes["map of $n"] = array_combine(array_map(fn ($i) => "key$i", range(1, $n)), range(1, $n));
}
$shapes['list with a hole'] = (function () { $a = [1, 2, 3]; unset($a[1]); return $a; })();
$bad = 0;
$checked = 0;
foreach ($shapes as $name => $value) {
    $h = new Holder();
    $h->list = $value;
    $h->map = ['inner' => $value];
    $h->obj = new Holder();
    // As a plain value (shared with the cache under zero copy), and inside
    // an object graph (a template copied by every fetch).
    $c->store('plain', $value);
    $c->store('graph', $h);
    foreach ($ops as $op => $f) {
        $want = $f($value);
        $got = [$f($c->fetch('plain')), $f($c->fetch('graph')->list), $f($c->fetch('graph')->map['inner'])];
        foreach ($got as $g) {
            $checked++;
            if ($g !== $want) {
                $bad++;
                echo "DIFFERENT: $name, $op\n", var_export($g, true), "\n", var_export($want, true), "\n";
            }
        }
    }
    // The stored value is unchanged by what the fetches did.
    if ($c->fetch('plain') !== $value || $c->fetch('graph')->list !== $value) {
        echo "CHANGED: $name\n";
    }
}
echo "$checked checked, $bad different\n";
?>
--EXPECT--
513 checked, 0 different
