--TEST--
Objects of a preloaded class stored by __sleep() selections (its properties declared in the order c, a, b) (listed by name: every property in declaration order, some of them, another order) are resolved once per process and found again by later requests for the same value: each request gets what unserialize(serialize()) gives, and so does another selection stored under the same key; objects of preloaded classes in properties typed by an interface or a union, their classes alternating, come back as stored in every request
--EXTENSIONS--
opcache
--INI--
opcache.enable=1
opcache.enable_cli=1
opcache.preload={PWD}/179-shape-cache-preloaded.inc
opcache.preload_user=root
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
use Resident\Cache;

var_dump((new ReflectionClass(PreloadedSleeper::class))->getFileName() === __DIR__ . '/179-shape-cache-preloaded.inc');
PreloadedSleeper::$picks = [1 => ['c', 'a', 'b'], 2 => ['a', 'b'], 3 => ['b', 'a'], 4 => ['c']];
$make = function (array $which): array {
    $v = [];
    foreach ($which as $a) {
        $o = new PreloadedSleeper();
        [$o->a, $o->b, $o->c] = [$a, "b$a", [$a, 'c']];
        $v[] = $o;
    }
    return $v;
};
$c = Cache::pool('shape-cache-preloaded');
foreach ([[1, 2, 3, 4, 1, 2], [4, 3, 2, 1], [2, 2, 3]] as $which) {
    $value = $make($which);
    $want = var_export(unserialize(serialize($value)), true);
    $c->store('k', $value);
    $seen = [];
    for ($request = 1; $request <= 3; $request++) {
        $got = var_export($c->fetch('k'), true);
        $seen[] = $got === $want ? 'as unserialize()' : "differs: $got";
        Cache::endOfRequest();
    }
    echo implode(',', $which), ': ', implode('; ', array_unique($seen)), "\n";
}
echo json_encode(array_map(fn ($o) => [$o->a, $o->b, $o->c], $c->fetch('k'))), "\n";

// Typed properties holding objects of preloaded classes, the class
// alternating from one object to the next.
$canvases = [];
for ($i = 0; $i < 6; $i++) {
    $shape = $i % 2 ? new PreloadedSquare($i) : new PreloadedCircle($i);
    $canvases[] = new PreloadedCanvas($shape, $i % 3 ? new PreloadedSquare(10 + $i) : ['none'], $i === 5 ? new PreloadedCircle(50) : null);
}
$want = var_export($canvases, true);
$c->store('canvases', $canvases);
for ($request = 1; $request <= 3; $request++) {
    $got = var_export($c->fetch('canvases'), true);
    echo "canvases, request $request: ", $got === $want ? 'as stored' : "differs:\n$got", "\n";
    Cache::endOfRequest();
}
?>
--EXPECT--
bool(true)
1,2,3,4,1,2: as unserialize()
4,3,2,1: as unserialize()
2,2,3: as unserialize()
[[2,"b2",[]],[2,"b2",[]],[3,"b3",[]]]
canvases, request 1: as stored
canvases, request 2: as stored
canvases, request 3: as stored
