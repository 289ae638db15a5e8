--TEST--
UserCache: a WeakReference, and an object whose __sleep() returns no array, are refused with the proposal's messages (the latter after serialize()'s warning) and nothing is stored; an Exception with its previous Error and a trace holding floats, references, shared and hooked objects comes back as unserialize(serialize()) gives it, hooks in its order; a throwing hook in a trace reaches fetch() and fetchMultiple() and the entry stays
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;

function traced(Throwable $e, array $trace): Throwable {
    (new ReflectionProperty($e instanceof Exception ? Exception::class : Error::class, 'trace'))->setValue($e, $trace);
    return $e;
}

class NoNames { public int $a = 1; public function __sleep() { return 5; } }
$c = Cache::getPool('refusals');
$target = new stdClass();
foreach (['weak' => WeakReference::create($target), 'sleep' => new NoNames(), 'nested sleep' => ['in' => [new NoNames()]]] as $key => $value) {
    try {
        var_dump($c->store($key, $value));
    } catch (TypeError $e) {
        echo "$key: ", $e->getMessage(), "\n";
    }
    var_dump($c->has($key));
}

class Hooked {
    public static array $log = [];
    public function __construct(public mixed $data = null) {}
    public function __serialize(): array { return ['data' => $this->data, 'extra' => 0.5]; }
    public function __unserialize(array $d): void { self::$log[] = 'unserialize'; $this->data = $d; }
}
class Sleepy {
    public int $kept = 1;
    public string $state = 'new';
    public function __sleep(): array { return ['kept']; }
    public function __wakeup(): void { Hooked::$log[] = 'wakeup'; $this->state = 'woken'; }
}
$shared = [1.5, -0.0];
$hooked = new Hooked(['x' => [true, null]]);
$e = traced(new Exception('outer', 3, new Error('inner')), [
    'floats' => [-0.0, 1.0e-300, INF, 0.1 + 0.2],
    'hooked' => $hooked,
    'again' => $hooked,
    'sleepy' => new Sleepy(),
    'ref' => &$shared,
    'ref again' => &$shared,
    7 => 'int key',
]);
$c = Cache::getPool('exceptions');
var_dump($c->store('e', $e));
Hooked::$log = [];
$got = $c->fetch('e');
$fetchLog = Hooked::$log;
Hooked::$log = [];
$native = unserialize(serialize($e));
var_dump(serialize($got) === serialize($native), $fetchLog === Hooked::$log, implode(',', $fetchLog));
$trace = $got->getTrace();
var_dump($got->getMessage(), $got->getCode(), $got->getPrevious()->getMessage(), $trace['hooked'] === $trace['again'],
    $trace['sleepy']->state, fdiv(1.0, $trace['floats'][0]), $trace[7]);
$held = (new ReflectionProperty(Exception::class, 'trace'))->getValue($got);
$held['ref'][] = 'appended';
var_dump($held['ref again'] === [1.5, -0.0, 'appended'], $shared === [1.5, -0.0]);

class Throws {
    public function __serialize(): array { return []; }
    public function __unserialize(array $d): void { throw new RuntimeException('restore failed'); }
}
$c->store('plain', 'fine');
$c->store('throws', traced(new Exception('hooked'), [new Throws()]));
foreach ([fn () => $c->fetch('throws'), fn () => $c->fetchMultiple(['plain', 'throws'])] as $read) {
    try {
        $read();
        echo "no exception\n";
    } catch (RuntimeException $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump($c->has('throws'), $c->fetch('plain'));
?>
--EXPECTF--
weak: WeakReference objects cannot be stored in the user cache
bool(false)

Warning: UserCache\Cache::store(): NoNames::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
sleep: NoNames::__sleep() did not return an array of member names; the object cannot be stored in the user cache
bool(false)

Warning: UserCache\Cache::store(): NoNames::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
nested sleep: NoNames::__sleep() did not return an array of member names; the object cannot be stored in the user cache
bool(false)
bool(true)
bool(true)
bool(true)
string(18) "unserialize,wakeup"
string(5) "outer"
int(3)
string(5) "inner"
bool(true)
string(5) "woken"
float(-INF)
string(7) "int key"
bool(true)
bool(true)
restore failed
restore failed
bool(true)
string(4) "fine"
