--TEST--
Closures declared in files OPcache caches are cached as records: unbound, bound ($this one object of the graph), static, arrow functions, first-class callables (function, method, static method, internal function), captured scalars, arrays and objects, static variables, nested closures, closures inside objects inside arrays; identity and cycles kept, also in a forked process
--EXTENSIONS--
pcntl
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
--FILE--
<?php
final class Greeter
{
    public array $log = [];
    public ?Closure $own = null;
    public function __construct(public string $greeting) {}
    public function greet(string $who): string { return "$this->greeting, $who"; }
    public function maker(): Closure { return function (string $who) { $this->log[] = $who; return $this->greet($who); }; }
    public static function doubler(): Closure { return static fn (int $x): int => $x * 2; }
    public static function triple(int $x): int { return $x * 3; }
    public function lateBound(): Closure { return fn () => static::class; }
}
final class LoudGreeter { }
function add(int $a, int $b): int { return $a + $b; }

$factor = 3;
$config = ['scale' => 10, 'names' => ['a', 'b']];
$greeter = new Greeter('Hello');
$greeter->own = $greeter->maker();               // a cycle: the object holds a closure bound to it
$outer = function (int $x) use ($factor) {
    return fn (int $y) => $x * $factor + $y;     // declared inside a closure
};
$shared = fn () => 'shared';
$values = [
    'unbound' => function (int $x) use ($factor, $config) { return $x * $factor + $config['scale'] + count($config['names']); },
    'bound' => $greeter->maker(),
    'greeter' => $greeter,
    'static' => Greeter::doubler(),
    'arrow' => fn (int $x) => $x + $factor,
    'late' => $greeter->lateBound(),
    'fcc function' => add(...),
    'fcc method' => $greeter->greet(...),
    'fcc static' => Greeter::triple(...),
    'fcc internal' => strtoupper(...),
    'counter' => function () { static $n = 0; return ++$n; },
    'outer' => $outer,
    'inner' => $outer(2),
    'captures object' => function () use ($greeter) { return $greeter->greeting; },
    'in objects' => [(object)['handlers' => ['x' => $shared, 'y' => $shared]]],
];
$values['counter']();
$values['counter']();

$c = Resident\Cache::pool('closures');
var_dump($c->store('v', $values));

function show(array $v): void
{
    echo "unbound: ", $v['unbound'](1), "\n";
    echo "bound: ", $v['bound']('world'), "\n";
    echo "bound to the graph's greeter: ", var_export($v['greeter']->log === ['world'], true), "\n";
    echo "static: ", $v['static'](21), "\n";
    echo "arrow: ", $v['arrow'](1), "\n";
    echo "late static binding: ", $v['late'](), "\n";
    echo "fcc: ", $v['fcc function'](2, 3), ' ', $v['fcc method']('fcc'), ' ', $v['fcc static'](5), ' ', $v['fcc internal']('abc'), "\n";
    echo "counter goes on: ", $v['counter'](), ' ', $v['counter'](), "\n";
    echo "outer: ", $v['outer'](3)(1), ", inner: ", $v['inner'](1), "\n";
    echo "captured object: ", $v['captures object'](), "\n";
    $h = $v['in objects'][0]->handlers;
    echo "in objects: ", $h['x'](), ", one closure twice: ", var_export($h['x'] === $h['y'], true), "\n";
    $g = $v['greeter'];
    echo "cycle: ", ($g->own)('cycle'), ", bound to its holder: ", var_export((new ReflectionFunction($g->own))->getClosureThis() === $g, true), "\n";
    echo "closures: ", var_export($v['bound'] instanceof Closure, true), "\n";
}

$pid = pcntl_fork();
if ($pid === 0) {
    echo "-- forked process\n";
    show($c->fetch('v'));
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "-- this process\n";
show($c->fetch('v'));
echo "-- the counter of each fetch starts where it was stored\n";
echo $c->fetch('v')['counter'](), "\n";
?>
--EXPECT--
bool(true)
-- forked process
unbound: 15
bound: Hello, world
bound to the graph's greeter: true
static: 42
arrow: 4
late static binding: Greeter
fcc: 5 Hello, fcc 15 ABC
counter goes on: 3 4
outer: 10, inner: 7
captured object: Hello
in objects: shared, one closure twice: true
cycle: Hello, cycle, bound to its holder: true
closures: true
-- this process
unbound: 15
bound: Hello, world
bound to the graph's greeter: true
static: 42
arrow: 4
late static binding: Greeter
fcc: 5 Hello, fcc 15 ABC
counter goes on: 3 4
outer: 10, inner: 7
captured object: Hello
in objects: shared, one closure twice: true
cycle: Hello, cycle, bound to its holder: true
closures: true
-- the counter of each fetch starts where it was stored
3
