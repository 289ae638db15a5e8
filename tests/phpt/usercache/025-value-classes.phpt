--TEST--
UserCache: values of PHP's own serializable classes come back as unserialize(serialize()) gives them: a Randomizer continues its engine's sequence, SPL containers, dates, inherited readonly properties stay readonly, floats keep their bits (the proposal's user_cache_value_matrix)
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('value-classes');
$randomizer = new Random\Randomizer(new Random\Engine\Xoshiro256StarStar(1234));
$randomizer->getInt(0, 100);
$stack = new SplStack();
$stack->push('one');
$stack->push('two');
$values = [
    'randomizer' => $randomizer,
    'mt' => new Random\Randomizer(new Random\Engine\Mt19937(42)),
    'stack' => $stack,
    'fixed' => SplFixedArray::fromArray([1, 'two', 3.0]),
    'array object' => new ArrayObject(['a' => 1, 'b' => 2]),
    'immutable' => new DateTimeImmutable('2026-07-02 12:00:00', new DateTimeZone('Asia/Tokyo')),
    'interval' => new DateInterval('P1DT2H'),
];
foreach ($values as $name => $value) {
    $c->store($name, $value);
    $fetched = $c->fetch($name);
    echo $name, ': ', serialize($fetched) === serialize($value) ? 'as stored' : 'differs', "\n";
}
$fetched = $c->fetch('randomizer');
var_dump($fetched->getInt(0, PHP_INT_MAX) === $randomizer->getInt(0, PHP_INT_MAX));
var_dump($c->fetch('mt')->getInt(1, 1000000) === (new Random\Randomizer(new Random\Engine\Mt19937(42)))->getInt(1, 1000000));
var_dump($c->fetch('stack')->top());

class Base
{
    public function __construct(public readonly string $name, protected readonly int $count)
    {
    }

    public function describe(): string
    {
        return "$this->name:$this->count";
    }
}
final class Child extends Base
{
    public function __construct(string $name, int $count, public readonly array $items)
    {
        parent::__construct($name, $count);
    }
}
$c->store('child', new Child('alpha', 7, ['a', 'b']));
$child = $c->fetch('child');
var_dump($child->describe(), $child->items);
try {
    $child->name = 'changed';
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}

$floats = [0.0, -0.0, PHP_FLOAT_EPSILON, PHP_FLOAT_MIN, PHP_FLOAT_MAX, 4.9e-324, 1 / 3, 0.1 + 0.2, -2.2250738585072014e-308, INF, -INF];
$same = true;
foreach ($floats as $f) {
    $c->store('float', $f);
    $same = $same && pack('d', $c->fetch('float')) === pack('d', $f);
}
$c->store('nan', NAN);
var_dump($same, is_nan($c->fetch('nan')));
?>
--EXPECT--
randomizer: as stored
mt: as stored
stack: as stored
fixed: as stored
array object: as stored
immutable: as stored
interval: as stored
bool(true)
bool(true)
string(3) "two"
string(7) "alpha:7"
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
Cannot modify readonly property Base::$name
bool(true)
bool(true)
