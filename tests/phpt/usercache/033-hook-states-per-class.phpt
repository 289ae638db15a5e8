--TEST--
UserCache: objects whose hooks return states of the same keys (__serialize()) or select the same properties (__sleep()) each get their own state at every fetch: an __unserialize() that changes its $data changes no other object's or fetch's, classes with like states stay apart, key names that differ by a NUL byte, a prefix, order or length stay apart, a state holding its object gives that object, and states of up to and past 64 values restore as unserialize() does (the proposal's class-scoped state schema tests)
--INI--
user_cache.enable_cli=1
user_cache.shm_size=16M
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('hook-states');

class Reading
{
    public static array $seen = [];
    public function __construct(private int $n, private string $unit) {}
    public function __serialize(): array
    {
        return ['n' => $this->n, 'unit' => $this->unit, 'meta' => ['unit' => $this->unit, 'sum' => $this->n + strlen($this->unit)]];
    }
    public function __unserialize(array $data): void
    {
        [$this->n, $this->unit] = [$data['n'], $data['unit'] . '/' . $data['meta']['sum']];
        $data['n'] = 0;
        $data['meta']['sum'] = -1;
        $data[] = 'appended';
        self::$seen[] = implode(',', array_keys($data)) . ' last ' . array_key_last($data);
    }
    public function show(): string { return "$this->n $this->unit"; }
}
class Celsius
{
    public function __construct(private int $v) {}
    public function __serialize(): array { return ['v' => $this->v, 'kind' => 'c']; }
    public function __unserialize(array $data): void { $this->v = $data['v'] + 100; }
    public function v(): int { return $this->v; }
}
class Fahrenheit
{
    public function __construct(private int $v) {}
    public function __serialize(): array { return ['v' => $this->v, 'kind' => 'f']; }
    public function __unserialize(array $data): void { $this->v = $data['v'] + 200; }
    public function v(): int { return $this->v; }
}
class HoldsItself
{
    public static int $same = 0;
    public function __construct(public string $name) {}
    public function __serialize(): array { return ['me' => $this, 'name' => $this->name]; }
    public function __unserialize(array $data): void { self::$same += $data['me'] === $this; $this->name = $data['name']; }
}

var_dump($c->store('readings', [new Reading(1, 'kg'), new Reading(2, 'm'), new Reading(3, 'cm')]));
foreach ([1, 2] as $round) {
    $r = $c->fetch('readings');
    echo $r[0]->show(), ' | ', $r[1]->show(), ' | ', $r[2]->show(), "\n";
}
echo count(Reading::$seen), ' ', count(array_unique(Reading::$seen)), ': ', Reading::$seen[5], "\n";

$one = new Reading(4, 'l');
var_dump($c->store('shared', [$one, $one]));
$shared = $c->fetch('shared');
var_dump($shared[0] === $shared[1], $shared[1]->show());

var_dump($c->store('scales', [new Celsius(1), new Fahrenheit(1), new Celsius(2)]));
$scales = $c->fetch('scales');
echo get_class($scales[0]), ' ', $scales[0]->v(), ', ', get_class($scales[1]), ' ', $scales[1]->v(), ', ', get_class($scales[2]), ' ', $scales[2]->v(), "\n";

var_dump($c->store('itself', new HoldsItself('loop')));
echo $c->fetch('itself')->name, ' ', HoldsItself::$same, "\n";

class Keyed
{
    public function __construct(public array $state) {}
    public function __serialize(): array { return $this->state; }
    public function __unserialize(array $state): void { $this->state = $state; }
}
class KeyedToo extends Keyed {}
$long = str_repeat('name', 300);
$objects = [];
foreach ([['ab' => 1, 'c' => 2], ['a' => 1, 'bc' => 2], ['c' => 2, 'ab' => 1], ["a\0b" => 1, "c\0" => 2], ["a" => 1, "c" => 2],
          [$long . 'x' => 1, $long . 'y' => 2], [$long . 'x' => 1, $long . 'y' => 2, 'z' => 3]] as $state) {
    $objects[] = new Keyed($state);
    $objects[] = new KeyedToo($state);
}
var_dump($c->store('keyed', $objects));
$same = true;
foreach ($c->fetch('keyed') as $i => $fetched) {
    $same = $same && get_class($fetched) === get_class($objects[$i]) && $fetched->state === $objects[$i]->state;
}
var_dump($same);

class Selects
{
    public static int $woken = 0;
    public $left = 'out';
    public function __construct(public int $id = 0, public array $list = []) {}
    public function __sleep(): array { return ['id', 'list']; }
    public function __wakeup(): void { self::$woken++; }
}
class Wide
{
    public static int $restored = 0;
    public function __construct(private array $values = []) {}
    public function __serialize(): array { return $this->values; }
    public function __unserialize(array $data): void { self::$restored++; $this->values = $data; }
}
foreach ([63, 64, 65] as $n) {
    $value = [];
    for ($i = 0; $i < 3; $i++) {
        $value[] = new Selects($i, range($i, $i + $n - 1));
        $value[] = new Wide(array_combine(array_map(fn ($k) => "v$k", range(1, $n)), array_fill(0, $n, $i)));
    }
    Selects::$woken = Wide::$restored = 0;
    $c->store("wide-$n", $value);
    $fetched = $c->fetch("wide-$n");
    echo $n, ': woken ', Selects::$woken, ', restored ', Wide::$restored, ', ',
        serialize($fetched) === serialize(unserialize(serialize($value))) ? 'as unserialize()' : 'DIFFERENT', ', ',
        $fetched[4]->left, ' ', count($fetched[4]->list), "\n";
}
?>
--EXPECT--
bool(true)
1 kg/3 | 2 m/3 | 3 cm/5
1 kg/3 | 2 m/3 | 3 cm/5
6 1: n,unit,meta,0 last 0
bool(true)
bool(true)
string(5) "4 l/5"
bool(true)
Celsius 101, Fahrenheit 201, Celsius 102
bool(true)
loop 1
bool(true)
bool(true)
63: woken 3, restored 3, as unserialize(), out 63
64: woken 3, restored 3, as unserialize(), out 64
65: woken 3, restored 3, as unserialize(), out 65
