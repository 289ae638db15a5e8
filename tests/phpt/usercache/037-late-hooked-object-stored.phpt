--TEST--
UserCache and Resident\Cache: a hook that puts an object with a hook of its own where the store had walked already (an array's slot, another object's property) has that object's hook run once, and the value is stored as the hooks left it: __serialize(), __sleep() and Serializable late objects, one whose own hook writes the value again (and grows an array in it: UserCache\Cache::store() returns false there and the value stored before stays, as in the proposal), one put behind by a late object itself
--INI--
resident.enable_cli=1
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
final class Shelf
{
    public array $slots = [];
    public ?object $side = null;
}

final class LateSerialize
{
    public static int $runs = 0;
    public static ?Closure $then = null;
    public function __construct(public string $tag = 'serialize') {}
    public function __serialize(): array
    {
        self::$runs++;
        if (self::$then) {
            (self::$then)();
        }
        return ['tag' => $this->tag . '!'];
    }
    public function __unserialize(array $data): void
    {
        $this->tag = $data['tag'];
    }
}

final class LateSleep
{
    public static int $runs = 0;
    public string $kept = 'sleep';
    public string $dropped = 'not stored';
    public function __sleep(): array
    {
        self::$runs++;
        return ['kept'];
    }
}

final class LateSerializable implements Serializable
{
    public static int $runs = 0;
    public string $s = 'serializable';
    public function serialize(): string
    {
        self::$runs++;
        return $this->s;
    }
    public function unserialize(string $data): void
    {
        $this->s = $data . '?';
    }
}

/* Its hook puts $what (made then) where the store has walked already. */
final class Planter
{
    public static ?Shelf $shelf = null;
    public static ?Closure $what = null;
    public static string $where = 'slot';
    public function __serialize(): array
    {
        $late = (self::$what)();
        if (self::$where === 'slot') {
            self::$shelf->slots[5] = $late;
        } else {
            self::$shelf->side = $late;
        }
        return ['planted' => true];
    }
    public function __unserialize(array $data): void {}
}

function describe(mixed $v): string
{
    return match (true) {
        $v instanceof LateSerialize => 'LateSerialize(' . $v->tag . ')',
        $v instanceof LateSleep => 'LateSleep(' . $v->kept . ', ' . $v->dropped . ')',
        $v instanceof LateSerializable => 'LateSerializable(' . $v->s . ')',
        default => get_debug_type($v),
    };
}

function attempt(object $cache, string $label, Closure $what, string $where): void
{
    $shelf = new Shelf();
    $shelf->slots = range(0, 9);
    $shelf->slots[0] = new stdClass();   /* the array leads to a node */
    Planter::$shelf = $shelf;
    Planter::$what = $what;
    Planter::$where = $where;
    LateSerialize::$runs = LateSleep::$runs = LateSerializable::$runs = 0;
    $ok = $cache->store('v', [$shelf, new Planter(), str_repeat('p', 500)]);
    $got = $cache->fetch('v');
    $late = $where === 'slot' ? $got[0]->slots[5] : $got[0]->side;
    printf("%s %s: %s, %s, slots[9]=%s, hooks %d/%d/%d\n", get_class($cache), $label, var_export($ok, true),
        describe($late), var_export($got[0]->slots[9], true), LateSerialize::$runs, LateSleep::$runs, LateSerializable::$runs);
}

foreach ([UserCache\Cache::getPool('late-stored'), Resident\Cache::pool('late-stored')] as $cache) {
    LateSerialize::$then = null;
    attempt($cache, '__serialize() in a slot', fn () => new LateSerialize(), 'slot');
    attempt($cache, '__serialize() in a property', fn () => new LateSerialize(), 'side');
    attempt($cache, '__sleep() in a slot', fn () => new LateSleep(), 'slot');
    attempt($cache, 'Serializable in a property', fn () => new LateSerializable(), 'side');
    /* The late object's own hook writes what was walked again. */
    LateSerialize::$then = function () {
        Planter::$shelf->slots[9] = 900;
        for ($i = 0; $i < 100; $i++) {
            Planter::$shelf->slots[] = str_repeat('g', 50);
        }
    };
    attempt($cache, 'late hook writes the value', fn () => new LateSerialize(), 'slot');
    /* The late object's own hook puts another late object behind the walk. */
    LateSerialize::$then = function () {
        LateSerialize::$then = null;
        Planter::$shelf->slots[1] = new LateSleep();
    };
    attempt($cache, 'late hook plants another', fn () => new LateSerialize(), 'slot');
    echo '  slots[1]: ', describe($cache->fetch('v')[0]->slots[1]), ', slots: ', count($cache->fetch('v')[0]->slots), "\n";
}
Planter::$shelf = null;
?>
--EXPECT--
UserCache\Cache __serialize() in a slot: true, LateSerialize(serialize!), slots[9]=9, hooks 1/0/0
UserCache\Cache __serialize() in a property: true, LateSerialize(serialize!), slots[9]=9, hooks 1/0/0
UserCache\Cache __sleep() in a slot: true, LateSleep(sleep, not stored), slots[9]=9, hooks 0/1/0
UserCache\Cache Serializable in a property: true, LateSerializable(serializable?), slots[9]=9, hooks 0/0/1
UserCache\Cache late hook writes the value: false, int, slots[9]=9, hooks 1/0/0
UserCache\Cache late hook plants another: true, LateSerialize(serialize!), slots[9]=9, hooks 1/1/0
  slots[1]: LateSleep(sleep, not stored), slots: 10
Resident\Cache __serialize() in a slot: true, LateSerialize(serialize!), slots[9]=9, hooks 1/0/0
Resident\Cache __serialize() in a property: true, LateSerialize(serialize!), slots[9]=9, hooks 1/0/0
Resident\Cache __sleep() in a slot: true, LateSleep(sleep, not stored), slots[9]=9, hooks 0/1/0
Resident\Cache Serializable in a property: true, LateSerializable(serializable?), slots[9]=9, hooks 0/0/1
Resident\Cache late hook writes the value: true, LateSerialize(serialize!), slots[9]=900, hooks 1/0/0
Resident\Cache late hook plants another: true, LateSerialize(serialize!), slots[9]=9, hooks 1/1/0
  slots[1]: LateSleep(sleep, not stored), slots: 10
