--TEST--
UserCache: a value holding an object PHP cannot serialize is refused with a TypeError naming its class (Fiber, Generator, WeakMap, WeakReference, CacheStatus, class@anonymous), bare, nested, or put there by a __serialize() hook; a DateTime, DateTimeZone or DateInterval its constructor never set up is refused with the Error serialize() throws; nothing is stored
--INI--
user_cache.enable_cli=1
date.timezone=UTC
--FILE--
<?php
class Holder
{
    public array $list = [];
    public ?Inserter $hook = null;
}

class Inserter
{
    public static Holder $into;
    public static Closure $make;

    public function __serialize(): array
    {
        self::$into->list[] = (self::$make)();
        return [];
    }

    public function __unserialize(array $data): void
    {
    }
}

$c = UserCache\Cache::getPool('refused');
$fiber = new Fiber(fn () => Fiber::suspend());
$fiber->start();
$makers = [
    'Fiber' => fn () => $fiber,
    'Generator' => fn () => (fn () => yield 1)(),
    'WeakMap' => fn () => new WeakMap(),
    'WeakReference' => fn () => WeakReference::create($c),
    'CacheStatus' => fn () => UserCache\Cache::getStatus(),
    'anonymous' => fn () => new class {
    },
];
foreach ($makers as $label => $make) {
    $holder = new Holder();
    $holder->hook = new Inserter();
    Inserter::$into = $holder;
    Inserter::$make = $make;
    foreach (['bare' => $make(), 'nested' => ['in' => [$make()]], 'by a hook' => $holder] as $how => $value) {
        try {
            var_dump($c->store($label, $value));
        } catch (TypeError $e) {
            echo "$label $how: ", $e->getMessage(), "\n";
        }
    }
    var_dump($c->has($label));
}

class Unmade extends DateTimeImmutable
{
}
foreach ([DateTime::class, DateTimeImmutable::class, Unmade::class, DateTimeZone::class, DateInterval::class, DatePeriod::class] as $class) {
    $unmade = (new ReflectionClass($class))->newInstanceWithoutConstructor();
    // DateObjectError on PHP 8.3+, Error before, with the engine's message.
    try {
        serialize($unmade);
    } catch (Error $e) {
        $thrown = [get_class($e), $e->getMessage()];
    }
    foreach (['store' => fn () => $c->store('date', $unmade), 'storeMultiple' => fn () => $c->storeMultiple(['first' => 1, 'date' => ['at' => $unmade]])] as $how => $call) {
        try {
            var_dump($call());
        } catch (Error $e) {
            echo "$class $how: ", [get_class($e), $e->getMessage()] === $thrown ? "the Error serialize() throws" : get_class($e) . ': ' . $e->getMessage(), "\n";
        }
    }
}
var_dump($c->has('date'), $c->has('first'), $c->store('made', new DateTimeImmutable('2026-01-02 03:04:05')), $c->fetch('made')->format('c'));
?>
--EXPECT--
Fiber bare: Fiber objects cannot be stored in the user cache
Fiber nested: Fiber objects cannot be stored in the user cache
Fiber by a hook: Fiber objects cannot be stored in the user cache
bool(false)
Generator bare: Generator objects cannot be stored in the user cache
Generator nested: Generator objects cannot be stored in the user cache
Generator by a hook: Generator objects cannot be stored in the user cache
bool(false)
WeakMap bare: WeakMap objects cannot be stored in the user cache
WeakMap nested: WeakMap objects cannot be stored in the user cache
WeakMap by a hook: WeakMap objects cannot be stored in the user cache
bool(false)
WeakReference bare: WeakReference objects cannot be stored in the user cache
WeakReference nested: WeakReference objects cannot be stored in the user cache
WeakReference by a hook: WeakReference objects cannot be stored in the user cache
bool(false)
CacheStatus bare: UserCache\CacheStatus objects cannot be stored in the user cache
CacheStatus nested: UserCache\CacheStatus objects cannot be stored in the user cache
CacheStatus by a hook: UserCache\CacheStatus objects cannot be stored in the user cache
bool(false)
anonymous bare: class@anonymous objects cannot be stored in the user cache
anonymous nested: class@anonymous objects cannot be stored in the user cache
anonymous by a hook: class@anonymous objects cannot be stored in the user cache
bool(false)
DateTime store: the Error serialize() throws
DateTime storeMultiple: the Error serialize() throws
DateTimeImmutable store: the Error serialize() throws
DateTimeImmutable storeMultiple: the Error serialize() throws
Unmade store: the Error serialize() throws
Unmade storeMultiple: the Error serialize() throws
DateTimeZone store: the Error serialize() throws
DateTimeZone storeMultiple: the Error serialize() throws
DateInterval store: the Error serialize() throws
DateInterval storeMultiple: the Error serialize() throws
DatePeriod store: the Error serialize() throws
DatePeriod storeMultiple: the Error serialize() throws
bool(false)
bool(false)
bool(true)
string(25) "2026-01-02T03:04:05+00:00"
