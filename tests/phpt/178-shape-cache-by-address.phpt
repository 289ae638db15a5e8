--TEST--
Shapes of a class that lasts the process whose properties are listed by name (stdClass's dynamic properties) are resolved once and found again by later requests for the same value only: each fetch, across request ends, gives the value stored; another value under the key, one with the same names in another order, and the same value restored from a dump (the same addresses, another stamp) each give their own
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
use Resident\Cache;

function obj(array $props): stdClass
{
    $o = new stdClass();
    foreach ($props as $k => $v) {
        $o->$k = $v;
    }
    return $o;
}
function show(mixed $v): string
{
    return json_encode($v);
}
$c = Cache::pool('shape-cache-by-address');
$first = ['a' => obj(['x' => 1, 'y' => 'two']), 'b' => obj(['x' => 3, 'y' => 'four']), 'c' => obj(['z' => [5]])];
$c->store('k', $first);
for ($request = 1; $request <= 3; $request++) {
    echo "request $request: ", show($c->fetch('k')), ' ', show($c->fetch('k')), "\n";
    Cache::endOfRequest();
}
// The same names in another order, then other names: their own shapes.
$c->store('k', ['a' => obj(['y' => 'Y', 'x' => 'X']), 'b' => obj(['y' => 0, 'x' => 1]), 'c' => obj(['z' => null])]);
echo "reordered: ", show($c->fetch('k')), "\n";
Cache::endOfRequest();
echo "reordered again: ", show($c->fetch('k')), "\n";
Cache::endOfRequest();
$c->store('k', $first);
echo "first again: ", show($c->fetch('k')), "\n";
Cache::endOfRequest();

// Restored from a dump into the emptied segment: at the addresses it had,
// under new stamps; then something else stored and the dump restored again.
$dir = sys_get_temp_dir() . '/resident-shape-cache-' . getmypid();
@mkdir($dir, 0700);
$dump = "$dir/k.dump";
var_dump(Cache::dump($dump) > 0);
foreach ([1, 2] as $round) {
    $c->clear();
    var_dump(Cache::restore($dump));
    echo "restored $round: ", show($c->fetch('k')), "\n";
    Cache::endOfRequest();
    echo "restored $round, next request: ", show($c->fetch('k')), "\n";
    Cache::endOfRequest();
    $c->clear();
    $c->store('k', ['a' => obj(['q' => $round])]);
    echo "other $round: ", show($c->fetch('k')), "\n";
    Cache::endOfRequest();
}
unlink($dump);
rmdir($dir);
?>
--EXPECT--
request 1: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}} {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
request 2: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}} {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
request 3: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}} {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
reordered: {"a":{"y":"Y","x":"X"},"b":{"y":0,"x":1},"c":{"z":null}}
reordered again: {"a":{"y":"Y","x":"X"},"b":{"y":0,"x":1},"c":{"z":null}}
first again: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
bool(true)
int(1)
restored 1: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
restored 1, next request: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
other 1: {"a":{"q":1}}
int(1)
restored 2: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
restored 2, next request: {"a":{"x":1,"y":"two"},"b":{"x":3,"y":"four"},"c":{"z":[5]}}
other 2: {"a":{"q":2}}
