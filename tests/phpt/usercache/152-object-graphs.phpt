--TEST--
UserCache: object graphs read back as serialize() would give them: SplObjectStorage (with its data, shared keys, subclass, nesting), enum cases as the singletons, a list of objects that appends in order, mixed string/int keys behind __wakeup, references and cycles across arrays and properties (typed ones keep their type), private, readonly and inherited private properties; a property whose type changed since the store is the TypeError unserialize() throws
--INI--
user_cache.enable_cli=1
--FILE--
<?php
enum Suit { case Hearts; case Spades; }
class Node { public function __construct(public int $id) {} }
class Woken { public array $data = []; public function __wakeup(): void {} }
class Tagged extends SplObjectStorage { public string $label = 'none'; }
class Counted { public int $a = 0; public int $b = 0; }
class Parent_ { private string $secret = 'parent'; public function parentSecret(): string { return $this->secret; } }
class Child_ extends Parent_ {
    private string $secret = 'child';
    public function __construct(public readonly int $id) {}
    public function set(string $s): void { $this->secret = $s; }
    public function childSecret(): string { return $this->secret; }
}

$c = UserCache\Cache::getPool('graphs');
$same = fn (string $key, $value) => $c->store($key, $value) && serialize($c->fetch($key)) === serialize($value);

$one = (object)['id' => 1];
$storage = new SplObjectStorage();
$storage[$one] = ['data' => [1, 2]];
$storage[new stdClass()] = 'info';
$tagged = new Tagged();
$tagged->label = 'kept';
$tagged[new stdClass()] = $storage;
var_dump($same('storage', $storage), $same('tagged', $tagged));
$c->store('graph', ['storage' => $storage, 'key' => $one]);
$g = $c->fetch('graph');
$g['storage']->rewind();
var_dump($g['storage']->current() === $g['key'], $c->fetch('tagged')->label, count($c->fetch('tagged')));

$c->store('suits', [Suit::Hearts, Suit::Spades, Suit::Hearts]);
$suits = $c->fetch('suits');
var_dump($suits[0] === Suit::Hearts && $suits[1] === Suit::Spades && $suits[2] === Suit::Hearts);

$c->store('list', [new Node(1), new Node(2), ['nested' => [new Node(3)]]]);
$list = $c->fetch('list');
$list[] = new Node(4);
$list[2]['nested'][] = new Node(5);
echo implode(',', array_keys($list)), ' ', $list[3]->id, ' ', implode(',', array_keys($list[2]['nested'])), "\n";

foreach ([['name' => 'x', 5 => 'y'], [5 => 'y', 'name' => 'x'], ['a' => 1, 3 => 'x', 'b' => 2, 7 => 'y'], ['outer' => [1 => 'one', 'two' => 2], 9 => ['k' => 'v']]] as $i => $data) {
    $w = new Woken();
    $w->data = $data;
    $c->store("woken$i", $w);
    echo $c->fetch("woken$i")->data === $data ? 'same ' : 'DIFFERENT ';
}
echo "\n";

$counted = new Counted();
$n = 11;
$counted->a = &$n;
$counted->b = &$n;
$c->store('typed-refs', $counted);
$t = $c->fetch('typed-refs');
$t->a = 77;
var_dump($t->b);
try {
    $t->a = 'text';
} catch (TypeError $e) {
    echo get_class($e), "\n";
}
$self = ['n' => 5];
$self['self'] = &$self;
$mutual = ['name' => 'p'];
$other = ['name' => 'q'];
$mutual['other'] = &$other;
$other['other'] = &$mutual;
$c->store('self', $self);
$c->store('mutual', $mutual);
$s = $c->fetch('self');
$m = $c->fetch('mutual');
var_dump($s['self'] === $s, $m['other']['other'] === $m, $m['other']['name']);
$shared = 5;
$holder = new stdClass();
$holder->slot = &$shared;
$c->store('across', ['cell' => &$shared, 'holder' => $holder]);
$x = $c->fetch('across');
$x['cell'] = 42;
var_dump($x['holder']->slot, $c->fetch('across')['cell']);

$child = new Child_(7);
$child->set('mine');
$c->store('child', $child);
$back = $c->fetch('child');
var_dump($back->childSecret(), $back->parentSecret(), $back->id);
try {
    $back->id = 8;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}

$pid = pcntl_fork();
if ($pid === 0) {
    eval('class Retyped { private string $value = "text"; }');
    exit($c->store('retyped', new Retyped()) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
eval('class Retyped { private int $value = 1; }');
try {
    $c->fetch('retyped');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    unserialize('O:7:"Retyped":1:{s:14:"' . "\0Retyped\0value" . '";s:4:"text";}');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(4) "kept"
int(1)
bool(true)
0,1,2,3 4 0,1
same same same same 
int(77)
TypeError
bool(true)
bool(true)
string(1) "q"
int(42)
int(5)
string(4) "mine"
string(6) "parent"
int(7)
Cannot modify readonly property Child_::$id
Cannot assign string to property Retyped::$value of type int
Cannot assign string to property Retyped::$value of type int
