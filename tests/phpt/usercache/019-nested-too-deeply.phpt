--TEST--
UserCache: a value nested deeper than 1,024 levels is refused with the proposal's TypeError (Value is nested too deeply to be stored in the user cache) by store(), add(), storeMultiple() and remember(), and nothing is stored; 1,000 levels store and read back
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('deep');
function nest(int $levels): array
{
    $a = [];
    for ($i = 0; $i < $levels; $i++) {
        $a = [$a];
    }
    return $a;
}
function levels(mixed $a): int
{
    for ($n = 0; $a !== []; $n++) {
        $a = $a[0];
    }
    return $n;
}
function chain(int $levels): stdClass
{
    $node = null;
    for ($i = 0; $i < $levels; $i++) {
        $next = new stdClass();
        $next->next = $node;
        $node = $next;
    }
    return $node;
}

$deep = nest(1100);
$chain = chain(1100);
foreach ([
    'store' => fn () => $c->store('k', $deep),
    'store (objects)' => fn () => $c->store('k', $chain),
    'add' => fn () => $c->add('k', ['inner' => $deep]),
    'storeMultiple' => fn () => $c->storeMultiple(['a' => 1, 'k' => $deep]),
    'remember' => fn () => $c->remember('k', fn () => $deep),
] as $method => $call) {
    try {
        var_dump($call());
    } catch (TypeError $e) {
        echo $method, ": ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
var_dump($c->has('k'), $c->has('a'));

var_dump($c->store('fits', nest(1000)), levels($c->fetch('fits')));
?>
--EXPECT--
store: TypeError: Value is nested too deeply to be stored in the user cache
store (objects): TypeError: Value is nested too deeply to be stored in the user cache
add: TypeError: Value is nested too deeply to be stored in the user cache
storeMultiple: TypeError: Value is nested too deeply to be stored in the user cache
remember: TypeError: Value is nested too deeply to be stored in the user cache
bool(false)
bool(false)
bool(true)
int(1000)
