--TEST--
Cache::endOfRequest(): garbage cycles holding borrowed values are collected, not reported; it refuses, releasing nothing, inside a hook a fetch runs
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
resident.check_borrowed=1
--FILE--
<?php
use Resident\Cache;

final class Node { public array $children = []; public ?Node $parent = null; public function __construct(public string $name) {} }
final class Wakes
{
    public string $name = 'w';
    public function __wakeup(): void { var_dump(Cache::endOfRequest()); }
}
$c = Cache::pool('edges');

echo "-- an unreachable cycle of objects whose strings are borrowed\n";
$root = new Node('root');
for ($i = 0; $i < 3; $i++) {
    $child = new Node("child$i");
    $child->parent = $root;
    $root->children[] = $child;
}
$c->store('tree', $root);
unset($root, $child);
$tree = $c->fetch('tree');
var_dump(count($tree->children));
unset($tree);
var_dump(Cache::endOfRequest());

echo "-- inside __wakeup(), run by a fetch\n";
$c->store('wakes', new Wakes());
var_dump($c->fetch('wakes') instanceof Wakes);
var_dump(Cache::endOfRequest());

?>
--EXPECTF--
-- an unreachable cycle of objects whose strings are borrowed
int(3)
bool(true)
-- inside __wakeup(), run by a fetch

Warning: Resident\Cache::endOfRequest(): Cannot end the request while a value is being read or stored (called from a hook a fetch or a store runs: __wakeup(), __serialize(), an autoloader); nothing was released in %s on line %d
bool(false)
bool(true)
bool(true)
