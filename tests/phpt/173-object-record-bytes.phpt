--TEST--
Object records take 8 bytes per property value plus one type byte (padded to 8), after the node's 16 and, for a packed record, its 8-byte mask: a record of 5 properties 64 bytes, one packed with 3 of 9 present 56, one of 70 properties (too many to pack) 648
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Five
{
    public function __construct(public int $a, public int $b, public int $c, public int $d, public int $e) {}
}
final class Nine { public $a = 0; public $b = 0; public $c = 0; public $d = 0; public $e = 0; public $f = 0; public $g = 0; public $h = 0; public $i = 0; }
eval('final class Seventy { ' . implode(' ', array_map(fn ($i) => "public \$p$i = 0;", range(0, 69))) . ' }');

function area(string $key): int
{
    foreach (Resident\Cache::inspect(100, 1)['largest'] as $row) {
        if ($row['pool'] === 'record-bytes' && $row['key'] === $key) {
            return $row['bytes'];
        }
    }
    throw new Error("$key not found");
}

$c = Resident\Cache::pool('record-bytes');
$makers = [
    'Five' => fn (int $i) => new Five($i, $i + 1, $i + 2, $i + 3, $i + 4),
    'Nine, 3 present' => function (int $i) { $o = new Nine(); $o->a = $i + 1; $o->e = $i + 2; $o->i = $i + 3; return $o; },
    'Seventy, 3 present' => function (int $i) { $o = new Seventy(); $o->p0 = $i + 1; $o->p33 = $i + 2; $o->p69 = $i + 3; return $o; },
];
foreach ($makers as $name => $make) {
    // Lists of 8 and of 16 objects of one shape: the 8 more add 8 records,
    // 8 elements of 16 bytes to the list's template and 32 bytes of patch
    // positions to its node; the shape is stored once in both.
    $c->store("$name 8", array_map($make, range(0, 7)));
    $c->store("$name 16", array_map($make, range(100, 115)));
    $record = (area("$name 16") - area("$name 8") - 8 * 16 - 32) / 8;
    echo "$name: $record bytes a record\n";
}
?>
--EXPECT--
Five: 64 bytes a record
Nine, 3 present: 56 bytes a record
Seventy, 3 present: 648 bytes a record
