--TEST--
increment, decrement and cas: missing keys start at 0, TTL on creation, overflow and type errors leave the value unchanged
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('counters');
var_dump($c->increment('hits'), $c->increment('hits'), $c->increment('hits', 10), $c->decrement('hits', 2));
var_dump($c->decrement('stock'), $c->decrement('stock', 5), $c->fetch('stock'));
var_dump($c->increment('neg', -3));

// The TTL applies when the counter is created, not on later updates.
var_dump($c->increment('short', 1, 1), $c->increment('short', 1, 3600));
usleep(1100000);
var_dump($c->fetch('short', 'expired'), $c->increment('short'));

$c->store('max', PHP_INT_MAX);
$c->store('min', PHP_INT_MIN);
foreach ([fn() => $c->increment('max'), fn() => $c->decrement('min'), fn() => $c->decrement('new', PHP_INT_MIN),
          fn() => $c->increment('min', -1)] as $f) {
    try {
        var_dump($f());
    } catch (ArithmeticError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($c->fetch('max') === PHP_INT_MAX, $c->fetch('min') === PHP_INT_MIN, $c->exists('new'));

$c->store('text', 'abc');
$c->store('list', [1]);
$c->store('float', 1.5);
$c->store('obj', new stdClass);
foreach (['text', 'list', 'float', 'obj'] as $k) {
    try {
        $c->increment($k);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    $c->cas('text', 1, 2);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->fetch('text'));

$c->store('version', 7);
var_dump($c->cas('version', 7, 8), $c->cas('version', 7, 9), $c->fetch('version'), $c->cas('absent', 0, 1), $c->exists('absent'));
try {
    $c->increment('k', 1, -1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(1)
int(2)
int(12)
int(10)
int(-1)
int(-6)
int(-6)
int(-3)
int(1)
int(2)
string(7) "expired"
int(1)
ArithmeticError: Increment of key "max" by 1 would overflow its value 9223372036854775807
ArithmeticError: Decrement of key "min" by 1 would overflow its value -9223372036854775808
ArithmeticError: Decrement of key "new" by -9223372036854775808 would overflow its value 0
ArithmeticError: Increment of key "min" by -1 would overflow its value -9223372036854775808
bool(true)
bool(true)
bool(false)
Resident\Cache::increment(): key "text" holds a string, not an integer
Resident\Cache::increment(): key "list" holds an array, not an integer
Resident\Cache::increment(): key "float" holds a float, not an integer
Resident\Cache::increment(): key "obj" holds an object, not an integer
Resident\Cache::cas(): key "text" holds a string, not an integer
string(3) "abc"
bool(true)
bool(false)
int(8)
bool(false)
bool(false)
Resident\Cache::increment(): Argument #3 ($ttl) must be greater than or equal to 0
