--TEST--
resident.check_borrowed: values fetched before Cache::endOfRequest() and still referenced (variables, properties, statics, array keys, a foreach, a suspended generator or Fiber) are copied with a warning naming where, and read what was stored after the segment reused their memory
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.memory=4M
resident.check_borrowed=1
--FILE--
<?php
use Resident\Cache;

final class Holder { public $config; public static $kept; }
$c = Cache::pool('check');
$config = ['db' => ['host' => 'db1', 'port' => 5432], 'name' => str_repeat('n', 100)];
$c->store('config', $config);
$c->store('key', 'a-borrowed-key');

function overwrite(Cache $c): void
{
    // Replaced entries are reclaimed once nobody reads them; their memory
    // then holds other values.
    for ($i = 0; $i < 2000; $i++) {
        $c->store('config', ['db' => ['host' => "other$i", 'port' => $i], 'name' => str_repeat('x', 100)]);
        $c->store('key', "another-key-$i");
        $c->store('list', [$i, $i, $i, $i]);
    }
    Cache::endOfRequest();
}

echo "-- a global variable\n";
$kept = $c->fetch('config');
var_dump(Cache::endOfRequest());
overwrite($c);
var_dump($kept === $config);

echo "-- a local variable, an object's property, a static property, a heap array's key\n";
function handle(Cache $c, array $config): void
{
    $db = $c->fetch('config')['db'];
    $o = new Holder();
    $o->config = $c->fetch('config');
    Holder::$kept = $c->fetch('config')['name'];
    $GLOBALS['byKey'] = [$c->fetch('key') => 1];
    var_dump(Cache::endOfRequest());
    overwrite($c);
    var_dump($db === $config['db'], $o->config === $config, Holder::$kept === $config['name'], $GLOBALS['byKey'] === ['a-borrowed-key' => 1]);
}
$c->store('config', $config);
$c->store('key', 'a-borrowed-key');
handle($c, $config);

echo "-- a foreach over a borrowed array\n";
function iterate(Cache $c): array
{
    $seen = [];
    foreach ($c->fetch('list') as $i) {
        $seen[] = $i;
        if (count($seen) === 1) {
            var_dump(Cache::endOfRequest());
            overwrite($c);
        }
    }
    return $seen;
}
$c->store('list', [10, 20, 30]);
var_dump(iterate($c) === [10, 20, 30]);

echo "-- nothing kept: no warning\n";
$c->fetch('config');
unset($kept, $byKey);
var_dump(Cache::endOfRequest());

echo "-- a suspended generator's and a suspended Fiber's variables\n";
$c->store('config', $config);
function gen(Cache $c) { $held = $c->fetch('config'); yield 1; yield $held; }
$g = gen($c);
$g->current();
$fiber = new Fiber(function (Cache $c) { $held = $c->fetch('config')['db']; Fiber::suspend(); return $held; });
$fiber->start($c);
var_dump(Cache::endOfRequest());
overwrite($c);
$g->next();
$fiber->resume();
var_dump($g->current() === $config, $fiber->getReturn() === $config['db']);
unset($g, $fiber);
var_dump(Cache::endOfRequest());

echo "-- an array deeper than the walk of heap arrays goes (256 levels): its copy is not walked again\n";
$deep = [];
for ($i = 0; $i < 300; $i++) {
    $deep = [$deep];
}
$c->store('deep', $deep);
unset($deep);   // a heap array this deep would be stuck itself
$kept = $c->fetch('deep');
var_dump(Cache::endOfRequest());
for ($levels = 0; $kept !== []; $levels++) {
    $kept = $kept[0];
}
var_dump($levels);
?>
--EXPECTF--
-- a global variable

Warning: Resident\Cache::endOfRequest(): 1 value fetched before endOfRequest() was still referenced (the first: $kept in the main script) and was copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
bool(true)
-- a local variable, an object's property, a static property, a heap array's key

Warning: Resident\Cache::endOfRequest(): 4 values fetched before endOfRequest() were still referenced (the first: $db in handle()) and were copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- a foreach over a borrowed array

Warning: Resident\Cache::endOfRequest(): 1 value fetched before endOfRequest() was still referenced (the first: a temporary value (a foreach, an expression) in iterate()) and was copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
bool(true)
-- nothing kept: no warning
bool(true)
-- a suspended generator's and a suspended Fiber's variables

Warning: Resident\Cache::endOfRequest(): 2 values fetched before endOfRequest() were still referenced (the first: $held in gen()) and were copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
bool(true)
bool(true)
bool(true)
-- an array deeper than the walk of heap arrays goes (256 levels): its copy is not walked again

Warning: Resident\Cache::endOfRequest(): 1 value fetched before endOfRequest() was still referenced (the first: $kept in the main script) and was copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
int(300)
