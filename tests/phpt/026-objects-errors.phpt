--TEST--
Objects that cannot be cached throw a TypeError naming the path, even inside what a hook returns
--INI--
resident.enable_cli=1
--FILE--
<?php
class Holder { public $items = []; }
function gen() { yield 1; }
$c = Resident\Cache::pool('errors');
$cases = [
    'closure' => eval('return fn () => 1;'),
    'generator' => gen(),
    'anonymous' => eval('return new class {};'),
    'weakmap' => new WeakMap,
    'weakref' => WeakReference::create(new stdClass),
    'reflection' => new ReflectionClass('Holder'),
    'fiber' => new Fiber(fn() => 1),
    'nested' => (function () { $h = new Holder; $h->items = ['x' => [1, new Holder, eval('return fn () => 1;')]]; return $h; })(),
    'in hook result' => new class_with_hook,
];
class class_with_hook { public function __serialize(): array { return ['cb' => eval('return fn () => 1;')]; } public function __unserialize(array $a): void {} }
foreach ($cases as $name => $value) {
    try {
        $c->store('k', $value);
        echo "$name: stored\n";
    } catch (TypeError $e) {
        echo "$name: ", $e->getMessage(), "\n";
    }
}
var_dump($c->exists('k'));

// Class changes between store and fetch (a deploy) are covered by the
// php-fpm tests (tests/fpm), where two requests can see different code.
echo "done\n";
?>
--EXPECT--
closure: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is a Closure declared in eval()'d code
generator: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is a Generator
anonymous: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of an anonymous class declared in eval()'d code
weakmap: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of WeakMap
weakref: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of WeakReference
reflection: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of ReflectionClass
fiber: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of Fiber
nested: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->items['x'][2] is a Closure declared in eval()'d code
in hook result: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->__serialize()['cb'] is a Closure declared in eval()'d code
bool(false)
done
