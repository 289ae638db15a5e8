--TEST--
UserCache: fetch(), fetchMultiple() and remember() refuse a Fiber switch inside a restore hook (__wakeup, __unserialize) with the engine's FiberError and leave no read section open; an exception from a hook reaches the caller and the entry stays (remember() does not compute over it)
--INI--
user_cache.enable_cli=1
resident.zero_copy=0
--FILE--
<?php
final class Wakes { public int $n = 1; public function __wakeup(): void { Fiber::suspend('in __wakeup'); } }
final class Unserializes
{
    public function __serialize(): array { return ['n' => 1]; }
    public function __unserialize(array $data): void { Fiber::suspend('in __unserialize'); }
}
final class Throws
{
    public static bool $fail = false;
    public int $n = 3;
    public function __wakeup(): void
    {
        if (self::$fail) {
            self::$fail = false;
            throw new RuntimeException('no wakeup');
        }
    }
}
$c = UserCache\Cache::getPool('hooks');
var_dump($c->store('wakes', ['x' => new Wakes()]), $c->store('unserializes', new Unserializes()));

$calls = [
    'fetch' => fn (string $key) => $c->fetch($key),
    'fetchMultiple' => fn (string $key) => $c->fetchMultiple([$key]),
    'remember' => fn (string $key) => $c->remember($key, fn () => 'computed'),
];
foreach (['wakes', 'unserializes'] as $key) {
    foreach ($calls as $name => $call) {
        $fiber = new Fiber(function () use ($call, $key, $name) {
            try {
                $call($key);
                echo "$name($key): fetched\n";
            } catch (FiberError $e) {
                echo "$name($key): ", get_class($e), ': ', $e->getMessage(), "\n";
            }
        });
        var_dump($fiber->start(), $fiber->isTerminated());
    }
}
// Copy mode: replaced values are freed at once only if no read section of
// ours is open (a borrowing request keeps one until it ends).
$c->store('churn', str_repeat('a', 10000));
$c->store('churn', str_repeat('b', 10000));
var_dump(UserCache\Cache::getStatus()->getWastedMemory(), $c->has('wakes'), $c->has('unserializes'));

echo "an exception from a hook:\n";
var_dump($c->store('throws', new Throws()));
foreach ($calls as $name => $call) {
    Throws::$fail = true;
    try {
        $call('throws');
        echo "$name: no exception\n";
    } catch (RuntimeException $e) {
        echo "$name: ", $e->getMessage(), "\n";
    }
    var_dump($c->has('throws'));
}
var_dump($c->fetch('throws')->n);
?>
--EXPECT--
bool(true)
bool(true)
fetch(wakes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
fetchMultiple(wakes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
remember(wakes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
fetch(unserializes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
fetchMultiple(unserializes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
remember(unserializes): FiberError: Cannot switch fibers in current execution context
NULL
bool(true)
int(0)
bool(true)
bool(true)
an exception from a hook:
bool(true)
fetch: no wakeup
bool(true)
fetchMultiple: no wakeup
bool(true)
remember: no wakeup
bool(true)
int(3)
