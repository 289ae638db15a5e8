--TEST--
resident.lazy_objects=1: == with an ordinary object on the left reads the shell's slots directly, so a shell used already compares as if the properties holding objects that nothing read yet were unset (as documented); with the shell on the left, or once those were read, it is exact
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.lazy_objects=1
opcache.jit=disable
--FILE--
<?php
final class Leaf { public function __construct(public int $n) {} }
final class Node
{
    public function __construct(public string $name, public ?Leaf $leaf, public array $tags = []) {}
}
$c = Resident\Cache::pool('lazy-compare');
$c->store('n', new Node('a', new Leaf(1), ['x']));
$expect = new Node('a', new Leaf(1), ['x']);

$n = $c->fetch('n');
echo $n->name, "\n";
var_dump($expect == $n, $n == $expect);
echo $n->leaf->n, "\n";
var_dump($expect == $n, $n == $expect, $n == new Node('a', new Leaf(2), ['x']));
?>
--EXPECT--
a
bool(false)
bool(true)
1
bool(true)
bool(true)
bool(false)
