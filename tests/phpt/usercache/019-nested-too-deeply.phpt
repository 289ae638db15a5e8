--TEST--
UserCache, where PHP knows no C stack limit (PHP 8.2, or zend.max_allowed_stack_size=-1 on 8.3+; 049 has the limit): a value nested deeper than 1,024 levels is refused with the proposal's TypeError (Value is nested too deeply to be stored in the user cache) by store(), add(), storeMultiple() and remember(), and nothing is stored; 1,000 levels store and read back; a store() run by a __serialize() hook of an outer store() neither hides nor causes the outer one's refusal
--INI--
user_cache.enable_cli=1
zend.max_allowed_stack_size=-1
--FILE--
<?php
$c = UserCache\Cache::getPool('deep');
function nest(int $levels): array
{
    $a = [];
    for ($i = 0; $i < $levels; $i++) {
        $a = [$a];
    }
    return $a;
}
function levels(mixed $a): int
{
    for ($n = 0; $a !== []; $n++) {
        $a = $a[0];
    }
    return $n;
}
function chain(int $levels): stdClass
{
    $node = null;
    for ($i = 0; $i < $levels; $i++) {
        $next = new stdClass();
        $next->next = $node;
        $node = $next;
    }
    return $node;
}

$deep = nest(1100);
$chain = chain(1100);
foreach ([
    'store' => fn () => $c->store('k', $deep),
    'store (objects)' => fn () => $c->store('k', $chain),
    'add' => fn () => $c->add('k', ['inner' => $deep]),
    'storeMultiple' => fn () => $c->storeMultiple(['a' => 1, 'k' => $deep]),
    'remember' => fn () => $c->remember('k', fn () => $deep),
] as $method => $call) {
    try {
        var_dump($call());
    } catch (TypeError $e) {
        echo $method, ": ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
var_dump($c->has('k'), $c->has('a'));

var_dump($c->store('fits', nest(1000)), levels($c->fetch('fits')));

class StoresInItsHook
{
    public static mixed $inner;

    public function __construct(public int $id)
    {
    }

    public function __serialize(): array
    {
        try {
            $stored = var_export($GLOBALS['c']->store("inner-{$this->id}", self::$inner), true);
        } catch (TypeError $e) {
            $stored = $e->getMessage();
        }
        echo "  inner store: $stored\n";
        return ['id' => $this->id];
    }

    public function __unserialize(array $data): void
    {
        $this->id = $data['id'];
    }
}
$small = ['a' => [1, 2]];
foreach ([
    'inner too deep, outer too deep' => [$deep, [new StoresInItsHook(1), $chain]],
    'inner too deep, outer fits' => [$deep, [new StoresInItsHook(2), $small]],
    'inner fits, outer too deep' => [$small, [new StoresInItsHook(3), $chain]],
    'outer too deep before the hook' => [$small, [$chain, new StoresInItsHook(4)]],
] as $case => [$inner, $outer]) {
    echo "$case:\n";
    StoresInItsHook::$inner = $inner;
    $id = $outer[0] instanceof StoresInItsHook ? $outer[0]->id : $outer[1]->id;
    try {
        echo var_export($c->store("outer-$id", $outer), true), "\n";
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
    var_dump($c->has("outer-$id"), $c->has("inner-$id"));
}
$fetched = $c->fetch('outer-2');
var_dump($fetched[0]->id, $fetched[1] === $small, $c->fetch('inner-3') === $small);
?>
--EXPECT--
store: TypeError: Value is nested too deeply to be stored in the user cache
store (objects): TypeError: Value is nested too deeply to be stored in the user cache
add: TypeError: Value is nested too deeply to be stored in the user cache
storeMultiple: TypeError: Value is nested too deeply to be stored in the user cache
remember: TypeError: Value is nested too deeply to be stored in the user cache
bool(false)
bool(false)
bool(true)
int(1000)
inner too deep, outer too deep:
  inner store: Value is nested too deeply to be stored in the user cache
Value is nested too deeply to be stored in the user cache
bool(false)
bool(false)
inner too deep, outer fits:
  inner store: Value is nested too deeply to be stored in the user cache
true
bool(true)
bool(false)
inner fits, outer too deep:
  inner store: true
Value is nested too deeply to be stored in the user cache
bool(false)
bool(true)
outer too deep before the hook:
Value is nested too deeply to be stored in the user cache
bool(false)
bool(false)
int(2)
bool(true)
bool(true)
