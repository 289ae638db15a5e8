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
require __DIR__ . '/closures.inc';
$c = Resident\Cache::pool('closures');
var_dump($c->store('v', $values));

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
echo "-- a closure stored alone, whose \$this holds it\n";
$c->store('own', $greeter->own);
$own = $c->fetch('own');
$holder = (new ReflectionFunction($own))->getClosureThis();
var_dump($own('alone'), $holder->own === $own, $holder !== $greeter);
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
-- a closure stored alone, whose $this holds it
string(12) "Hello, alone"
bool(true)
bool(true)
