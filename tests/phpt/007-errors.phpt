--TEST--
Bad keys and values throw clear exceptions, naming the path, and leave the cache unchanged
--INI--
resident.enable_cli=1
; The 1,024 levels of a PHP that knows no C stack limit (8.2): on 8.3+ the
; stack bounds the depth instead (usercache/049).
zend.max_allowed_stack_size=-1
--FILE--
<?php
$c = Resident\Cache::pool();
$c->store('keep', 'old');

function attempt(callable $f): void
{
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

class Holder { public $prop; private $secret; public function __construct($p, $s = null) { $this->prop = $p; $this->secret = $s; } }
function gen() { yield 1; }

attempt(fn() => $c->store('', 1));
attempt(fn() => $c->store("a\0b", 1));
attempt(fn() => $c->store(str_repeat('k', 4097), 1));
attempt(fn() => $c->fetch(''));
attempt(fn() => $c->exists(''));
attempt(fn() => $c->delete(''));
attempt(fn() => $c->add('', 1));
attempt(fn() => $c->store('keep', ['a' => [1, 2, 3, eval('return fn () => 1;')]]));
attempt(fn() => $c->store('keep', STDIN));
attempt(fn() => $c->store('keep', ['files' => ['in' => STDIN]]));
attempt(fn() => $c->store('keep', gen()));
attempt(fn() => $c->store('keep', eval('return new class {};')));
attempt(fn() => $c->store('keep', [new Holder(['x' => eval('return fn () => 1;')])]));
attempt(fn() => $c->store('keep', new Holder(1, STDERR)));
attempt(fn() => $c->store('keep', ["it's" => ["\n" => eval('return fn () => 1;')]]));
attempt(fn() => $c->storeMultiple(['ok' => 1, 'bad' => [eval('return fn () => 1;')]]));
attempt(fn() => $c->storeMultiple(['ok' => 1, '' => 2]));
attempt(fn() => $c->fetchMultiple(['ok', 1.5]));
attempt(fn() => $c->fetchMultiple([[]]));
attempt(fn() => $c->deleteMultiple(['keep', null]));
attempt(fn() => $c->store('keep', new WeakMap));

$deep = [];
for ($i = 0; $i < 10000; $i++) {
    $deep = [$deep];
}
attempt(fn() => $c->store('keep', $deep));

// Nothing of the above was stored or removed.
var_dump($c->fetch('keep'), $c->exists('ok'), $c->info()['entries']);
?>
--EXPECT--
ValueError: Resident\Cache::store(): Argument #1 ($key) must not be empty
ValueError: Resident\Cache::store(): Argument #1 ($key) must not contain NUL bytes
ValueError: Resident\Cache::store(): Argument #1 ($key) must not be longer than 4096 bytes
ValueError: Resident\Cache::fetch(): Argument #1 ($key) must not be empty
ValueError: Resident\Cache::exists(): Argument #1 ($key) must not be empty
ValueError: Resident\Cache::delete(): Argument #1 ($key) must not be empty
ValueError: Resident\Cache::add(): Argument #1 ($key) must not be empty
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value['a'][3] is a Closure declared in eval()'d code
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is a resource
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value['files']['in'] is a resource
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is a Generator
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of an anonymous class declared in eval()'d code
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value[0]->prop['x'] is a Closure declared in eval()'d code
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->secret is a resource
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value['it\'s']['\x0a'] is a Closure declared in eval()'d code
TypeError: Resident\Cache::storeMultiple(): Argument #1 ($values) cannot be cached: $values['bad'][0] is a Closure declared in eval()'d code
ValueError: Resident\Cache::storeMultiple(): Argument #1 ($values) must not be empty
TypeError: Resident\Cache::fetchMultiple(): Argument #1 ($keys) must contain only string keys, float given
TypeError: Resident\Cache::fetchMultiple(): Argument #1 ($keys) must contain only string keys, array given
TypeError: Resident\Cache::deleteMultiple(): Argument #1 ($keys) must contain only string keys, null given
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of WeakMap
ValueError: Resident\Cache::store(): Argument #2 ($value) is nested deeper than 1024 levels
string(3) "old"
bool(false)
int(1)
