--TEST--
UserCache: increment() and decrement() create, update in place and return ?int; a value that is not an integer is a ValueError, a result out of range an ArithmeticError, both naming the key
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('counters');
function attempt(callable $f): string
{
    try {
        return var_export($f(), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}
var_dump($c->increment('n'), $c->increment('n', 4), $c->decrement('n', 2), $c->fetch('n'));
var_dump($c->decrement('missing', 3), $c->fetch('missing'), $c->increment('zero', 0));
foreach (['text' => 'x', 'float' => 1.5, 'array' => [1], 'null' => null, 'numeric' => '5'] as $key => $value) {
    $c->store($key, $value);
    echo $key, ': ', attempt(fn () => $c->increment($key)), ' / ', attempt(fn () => $c->decrement($key)), "\n";
    var_dump($c->fetch($key) === $value);
}
$c->store('max', PHP_INT_MAX);
$c->store('min', PHP_INT_MIN);
echo attempt(fn () => $c->increment('max')), "\n", attempt(fn () => $c->decrement('min')), "\n";
echo attempt(fn () => $c->decrement('min', 0)), "\n";
var_dump($c->fetch('max') === PHP_INT_MAX, $c->fetch('min') === PHP_INT_MIN);
echo attempt(fn () => $c->increment('missing-big', PHP_INT_MAX)), "\n";
// Messages print the key up to a NUL byte; the whole key is the one updated.
$c->store("text\0tail", 'x');
$c->store('text', 5);
echo attempt(fn () => $c->increment("text\0tail")), "\n";
var_dump($c->increment("n\0a", 2), $c->increment("n\0b", 3), $c->fetch('text'));
echo "TTL: counted from the counter's creation\n";
var_dump($c->increment('ttl', 1, 1), $c->increment('ttl', 1, 100));
sleep(2);
var_dump($c->fetch('ttl', 'expired'), $c->increment('ttl'));
?>
--EXPECT--
int(1)
int(5)
int(3)
int(3)
int(-3)
int(-3)
int(0)
text: ValueError: Increment of user cache key "text" requires the stored value to be an integer / ValueError: Decrement of user cache key "text" requires the stored value to be an integer
bool(true)
float: ValueError: Increment of user cache key "float" requires the stored value to be an integer / ValueError: Decrement of user cache key "float" requires the stored value to be an integer
bool(true)
array: ValueError: Increment of user cache key "array" requires the stored value to be an integer / ValueError: Decrement of user cache key "array" requires the stored value to be an integer
bool(true)
null: ValueError: Increment of user cache key "null" requires the stored value to be an integer / ValueError: Decrement of user cache key "null" requires the stored value to be an integer
bool(true)
numeric: ValueError: Increment of user cache key "numeric" requires the stored value to be an integer / ValueError: Decrement of user cache key "numeric" requires the stored value to be an integer
bool(true)
ArithmeticError: Increment of user cache key "max" would exceed the range of a PHP integer
ArithmeticError: Decrement of user cache key "min" would exceed the range of a PHP integer
-9223372036854775807-1
bool(true)
bool(true)
9223372036854775807
ValueError: Increment of user cache key "text" requires the stored value to be an integer
int(2)
int(3)
int(5)
TTL: counted from the counter's creation
int(1)
int(2)
string(7) "expired"
int(1)
