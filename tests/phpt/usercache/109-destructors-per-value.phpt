--TEST--
UserCache: a stored object's destructor runs for the value stored and once for each value fetched, never for a copy the cache keeps (delete() and clear() run none), also when the object is in an array, behind an alias, or inside an ArrayObject, SplFixedArray, SplStack or SplObjectStorage, or is itself a subclass of one; a cycle through SPL storage comes back
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;

final class Log { public static string $phase = ''; public static array $events = []; public static int $clones = 0; }
class Tracked {
    public int $value = 41;
    public function __destruct() { Log::$events[] = Log::$phase; }
    public function __clone() { Log::$clones++; }
}
class TrackedChild extends Tracked {}
class TrackedArrayObject extends ArrayObject { public function __destruct() { Log::$events[] = Log::$phase; } }

function exercise(string $name, callable $make, callable $check, bool $clear): void {
    $c = Cache::getPool("dtor-$name");
    Log::$phase = 'stored';
    Log::$events = [];
    Log::$clones = 0;
    $value = $make();
    $c->store('v', $value);
    unset($value);
    gc_collect_cycles();
    $stored = Log::$events;
    Log::$phase = 'fetched';
    Log::$events = [];
    $ok = true;
    for ($i = 0; $i < 2; $i++) {
        $got = $c->fetch('v');
        $ok = $ok && $check($got);
        unset($got);
        gc_collect_cycles();
    }
    $fetched = Log::$events;
    Log::$phase = 'dropped';
    Log::$events = [];
    $clear ? $c->clear() : $c->delete('v');
    gc_collect_cycles();
    printf("%s: %s | %s | %s | clones %d | %s\n", $name, implode(',', $stored), implode(',', $fetched), implode(',', Log::$events), Log::$clones, var_export($ok, true));
}

exercise('direct', fn () => new Tracked(), fn ($v) => $v->value === 41, true);
exercise('subclass', fn () => new TrackedChild(), fn ($v) => $v instanceof TrackedChild, false);
exercise('alias', function () {
    $t = new Tracked();
    return (object) ['list' => [new stdClass(), $t], 'alias' => $t];
}, fn ($v) => $v->list[1] === $v->alias, true);
exercise('array-object', fn () => new ArrayObject([new stdClass(), new Tracked()]), fn ($v) => $v[1]->value === 41, false);
exercise('fixed-array', fn () => SplFixedArray::fromArray([new stdClass(), new Tracked()]), fn ($v) => $v[1]->value === 41, true);
exercise('stack', function () {
    $s = new SplStack();
    $s->push(new stdClass());
    $s->push(new Tracked());
    return $s;
}, fn ($v) => $v->top()->value === 41, false);
exercise('object-storage', function () {
    $s = new SplObjectStorage();
    $s[new Tracked()] = null;   // attach() is deprecated in 8.5
    return $s;
}, function ($v) {
    $v->rewind();
    return $v->current()->value === 41;
}, true);
exercise('subclass-of-array-object', fn () => new TrackedArrayObject([41]), fn ($v) => $v[0] === 41, false);

echo "cycles through SPL storage:\n";
$c = Cache::getPool('spl-cycles');
$wraps = [
    'SplDoublyLinkedList' => function ($item) { $l = new SplDoublyLinkedList(); $l->push($item); return $l; },
    'ArrayObject' => fn ($item) => new ArrayObject(['item' => $item]),
    'SplFixedArray' => function ($item) { $a = new SplFixedArray(1); $a[0] = $item; return $a; },
];
foreach ($wraps as $name => $wrap) {
    $item = new stdClass();
    $item->container = $wrap($item);
    $c->store($name, $item);
    $got = $c->fetch($name);
    foreach ($got->container as $inner) {
        echo $name, ': ', $inner === $got ? 'kept' : 'lost', "\n";
    }
}
$item = $got = $inner = null;
gc_collect_cycles();
?>
--EXPECT--
direct: stored | fetched,fetched |  | clones 0 | true
subclass: stored | fetched,fetched |  | clones 0 | true
alias: stored | fetched,fetched |  | clones 0 | true
array-object: stored | fetched,fetched |  | clones 0 | true
fixed-array: stored | fetched,fetched |  | clones 0 | true
stack: stored | fetched,fetched |  | clones 0 | true
object-storage: stored | fetched,fetched |  | clones 0 | true
subclass-of-array-object: stored | fetched,fetched |  | clones 0 | true
cycles through SPL storage:
SplDoublyLinkedList: kept
ArrayObject: kept
SplFixedArray: kept
