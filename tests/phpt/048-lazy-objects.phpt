--TEST--
RequestOverStatic restores objects lazily: shells of unchanged classes are filled in when first used (properties, methods, var_dump, casts, foreach, serialize, clone, ==, references, readonly, __get, the collector, storing again), keep identity and cycles, and a request that only read them is told they did not change
--INI--
resident.enable_cli=1
resident.testing=1
resident.zero_copy=on
--FILE--
<?php
use Resident\Testing;

class Node
{
    public string $name;
    public ?Node $parent = null;
    public array $children = [];
    public int $visits = 0;
    private int $secret = 7;
    protected $meta = ['k' => 'v'];
    public function __construct(string $name) { $this->name = $name; }
    public function secret(): int { return $this->secret; }
}
final class Magic
{
    public $a = 1;
    private $hidden = 'h';
    public function __get($n) { return "magic:$n"; }
    public function __isset($n) { return $n === 'virtual'; }
}
final class Ro { public function __construct(public readonly int $id) {} }
#[AllowDynamicProperties] final class Dyn { public $x = 1; }
final class Bye { public $n = 'bye'; public function __destruct() { echo "destructor of a restored object: {$this->n}\n"; } }

$root = new Node('root');
$shared = new Node('shared');
for ($i = 0; $i < 3; $i++) {
    $child = new Node("child$i");
    $child->parent = $root;
    $child->children[] = $shared;
    $root->children[] = $child;
}
$list = [];
for ($i = 0; $i < 12; $i++) {
    $list[] = new Node("n$i");
}
$c = Resident\Cache::pool('lazy');
$c->store('g', ['root' => $root, 'list' => $list, 'magic' => new Magic, 'ro' => new Ro(5), 'dyn' => new Dyn, 'bye' => new Bye]);
unset($root, $shared, $child, $list);

$v = Testing::fetchLazily($c, 'g');
$l = $v['list'];
$shell = fn ($o) => Testing::isShell($o) ? 'shell' : 'filled';

echo "-- restored\n";
echo $shell($v['root']), ' ', $shell($l[0]), ' ', $shell($v['magic']), "\n";
var_dump(Testing::lazyUnchanged());

echo "-- reads fill\n";
echo $v['root']->name, ' ', $shell($v['root']), ' ', $shell($v['root']->children[0]), "\n";
var_dump($v['root']->children[0]->parent === $v['root']);
var_dump($v['root']->children[0]->children[0] === $v['root']->children[1]->children[0]);
echo $v['root']->children[2]->secret(), "\n";
var_dump(isset($l[1]->name), isset($l[2]->nope));
echo $shell($l[1]), ' ', $shell($l[2]), "\n";
var_dump(Testing::lazyUnchanged());

echo "-- what asks for all properties\n";
var_dump($l[3]);
echo json_encode((array)$l[4] === (array)new Node('n4')), ' ', json_encode(get_object_vars($l[5])), "\n";
foreach ($l[6] as $k => $val) { echo "$k "; }
echo "\n", serialize($l[7]) === serialize(new Node('n7')) ? 'serialize ok' : 'serialize differs', "\n";
var_export($l[8]); echo "\n";
$r = new ReflectionProperty(Node::class, 'secret');
echo $r->getValue($l[9]), "\n";

echo "-- writes\n";
$l[10]->visits++;
$ref = &$l[10]->children;
$ref[] = 'via reference';
unset($ref);
echo $l[10]->visits, ' ', json_encode($l[10]->children), "\n";
try { $l[11]->name = []; } catch (TypeError $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
echo $l[11]->name, "\n";
try { $v['ro']->id = 6; } catch (Error $e) { echo $e->getMessage(), ' (', $v['ro']->id, ")\n"; }

echo "-- magic\n";
$m = Testing::fetchLazily($c, 'g')['magic'];
echo $m->hidden, ' ', $m->a, ' ', json_encode(isset($m->virtual)), "\n";

echo "-- clone, compare\n";
$w = Testing::fetchLazily($c, 'g')['list'];
$copy = clone $w[0];
echo $copy->name, ' ', $shell($w[0]), ' ', $shell($copy), "\n";
var_dump($w[1] == $w[1], $w[2] == Testing::fetchLazily($c, 'g')['list'][2], $w[3] == $w[4]);

echo "-- the collector\n";
$g = Testing::fetchLazily($c, 'g');
gc_collect_cycles();
echo $g['root']->children[1]->parent->name, "\n";
unset($g);
gc_collect_cycles();

echo "-- stored again\n";
$w = Testing::fetchLazily($c, 'g');
$c->store('again', $w['root']);
echo $shell($w['root']), ' ', $c->fetch('again')->children[2]->parent->name, "\n";
$c->store('one-pass', $w['list'][5]);
$w2 = Testing::fetchLazily($c, 'g');
$c->store('one-pass', $w2['list'][6]);
echo $c->fetch('one-pass')->name, "\n";

echo "-- change\n";
$cases = [
    'read only' => function ($g) { $g['root']->children[0]->children[0]->name; $g['list'][0]->secret(); },
    'a scalar' => function ($g) { $g['list'][0]->visits = 1; },
    'a scalar set back' => function ($g) { $g['list'][0]->visits = 1; $g['list'][0]->visits = 0; },
    'an array in place' => function ($g) { $g['root']->children[0]->children[] = 1; },
    'an array element' => function ($g) { $g['root']->children[0]->children[0] = new Node('shared'); },
    'an object for an equal one' => function ($g) { $g['list'][1]->parent = null; $g['root']->children[1]->parent = new Node('root'); },
    'a dynamic property' => function ($g) { $g['dyn']->y = 2; },
    'unset' => function ($g) { unset($g['list'][2]->visits); },
    'a default' => function ($g) { $g['list'][3]->meta ?? null; (fn () => $this->meta = ['k' => 'w'])->call($g['list'][3]); },
];
foreach ($cases as $name => $mutate) {
    $g = Testing::fetchLazily($c, 'g');
    $mutate($g);
    echo str_pad($name, 28), json_encode(!Testing::lazyUnchanged()), "\n";
}
$c->store('native', ['when' => new DateTime('2020-01-01'), 'node' => new Node('with a date')]);
$g = Testing::fetchLazily($c, 'native');
echo str_pad('a graph with a DateTime', 28), json_encode(Testing::lazyUnchanged()), "\n";
echo "-- hot code (compiled by the JIT where it is on)\n";
$c->store('small', [new Node('a'), new Node('b')]);
function describe(Node $n): string { return $n->name . $n->secret(); }
function visit(Node $n): int { return ++$n->visits; }
$out = 0;
for ($i = 0; $i < 500; $i++) {
    $x = Testing::fetchLazily($c, 'small');
    $out += strlen(describe($x[0])) + visit($x[1]) + (isset($x[1]->parent) ? 100 : 0);
}
echo $out, "\n";
echo "-- end\n";
--EXPECT--
destructor of a restored object: bye
-- restored
shell shell shell
bool(true)
-- reads fill
root shell shell
bool(true)
bool(true)
7
bool(true)
bool(false)
filled filled
bool(true)
-- what asks for all properties
object(Node)#13 (6) {
  ["name"]=>
  string(2) "n3"
  ["parent"]=>
  NULL
  ["children"]=>
  array(0) {
  }
  ["visits"]=>
  int(0)
  ["secret":"Node":private]=>
  int(7)
  ["meta":protected]=>
  array(1) {
    ["k"]=>
    string(1) "v"
  }
}
true {"name":"n5","parent":null,"children":[],"visits":0}
name parent children visits 
serialize ok
\Node::__set_state(array(
   'name' => 'n8',
   'parent' => NULL,
   'children' => 
  array (
  ),
   'visits' => 0,
   'secret' => 7,
   'meta' => 
  array (
    'k' => 'v',
  ),
))
7
-- writes
1 ["via reference"]
TypeError: Cannot assign array to property Node::$name of type string
n11
Cannot modify readonly property Ro::$id (5)
-- magic
magic:hidden 1 true
-- clone, compare
n0 filled filled
bool(true)
bool(true)
bool(false)
-- the collector
root
-- stored again
filled root
n6
-- change
read only                   false
a scalar                    true
a scalar set back           false
an array in place           true
an array element            true
an object for an equal one  true
a dynamic property          true
unset                       true
a default                   true
a graph with a DateTime     false
-- hot code (compiled by the JIT where it is on)
1500
-- end
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
destructor of a restored object: bye
