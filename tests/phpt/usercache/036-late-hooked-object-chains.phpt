--TEST--
UserCache and Resident\Cache: a hook that puts an object with a hook of its own where the store had walked already has that object's hook run, also where it then grows, frees or writes the array it was put in, and the value is stored as the hooks left it, except that UserCache\Cache::store() returns false where that late hook grew the array in a property (a dynamic or a declared one), as the proposal's store() does (what it writes no longer fits what it sized); hooks that each put a new such object behind the walk are run for 8 rounds, then UserCache\Cache::store() returns false (nothing stored, the cache goes on working) and Resident\Cache::store() throws the Error naming what happened; a late hook's exception reaches the caller
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Owner
{
    public array $list = [];
}

final class Late
{
    public static ?object $owner = null;
    public static string $then = 'grow';
    public static int $runs = 0;
    public function __serialize(): array
    {
        self::$runs++;
        switch (self::$then) {
            case 'grow':
                for ($i = 0; $i < 300; $i++) {
                    self::$owner->list[] = $i;
                }
                break;
            case 'write':
                self::$owner->list[1] = 'written';
                break;
            case 'free':
                self::$owner->list = ['replaced', 'again'];
                break;
            case 'chain':
                self::$owner->list[0] = new Late();
                break;
            case 'throw':
                throw new RuntimeException('late hook failed');
        }
        return ['n' => 1];
    }
    public function __unserialize(array $data): void {}
}

final class Injector
{
    public static int $runs = 0;
    public function __serialize(): array
    {
        self::$runs++;
        Late::$owner->list[] = new Late();
        Late::$owner->list[] = 't1';
        Late::$owner->list[] = 't2';
        return ['b' => 1];
    }
    public function __unserialize(array $data): void {}
}

function attempt(object $cache, string $then, bool $declared = false): void
{
    if ($declared) {
        $owner = new Owner();
    } else {
        $owner = new stdClass();
        $owner->list = [];
    }
    Late::$owner = $owner;
    Late::$then = $then;
    Late::$runs = Injector::$runs = 0;
    $cache->delete('v');
    try {
        $ok = $cache->store('v', [$owner, new Injector(), str_repeat('x', 2000)]);
    } catch (Throwable $e) {
        $ok = get_class($e) . ': ' . $e->getMessage();
    }
    $got = $cache->fetch('v');
    $list = $got === null ? 'nothing stored' : count($got[0]->list) . ' elements, first ' . get_debug_type($got[0]->list[0])
        . ', second ' . var_export($got[0]->list[1], true) . ', last ' . var_export($got[0]->list[array_key_last($got[0]->list)], true);
    printf("%s %s%s: %s; %s; hooks run: Injector %d, Late %d; live: %d elements\n", get_class($cache), $then, $declared ? ' (declared)' : '',
        is_string($ok) ? $ok : var_export($ok, true), $list, Injector::$runs, Late::$runs, count($owner->list));
}

foreach ([UserCache\Cache::getPool('late-chains'), Resident\Cache::pool('late-chains')] as $cache) {
    attempt($cache, 'grow');
    attempt($cache, 'grow', true);
    attempt($cache, 'write');
    attempt($cache, 'write', true);
    attempt($cache, 'free');
    attempt($cache, 'chain');
    attempt($cache, 'throw');
    var_dump($cache->store('n', 1), $cache->fetch('n'));
}
Late::$owner = null;
?>
--EXPECT--
UserCache\Cache grow: false; nothing stored; hooks run: Injector 1, Late 1; live: 303 elements
UserCache\Cache grow (declared): false; nothing stored; hooks run: Injector 1, Late 1; live: 303 elements
UserCache\Cache write: true; 3 elements, first Late, second 'written', last 't2'; hooks run: Injector 1, Late 1; live: 3 elements
UserCache\Cache write (declared): true; 3 elements, first Late, second 'written', last 't2'; hooks run: Injector 1, Late 1; live: 3 elements
UserCache\Cache free: true; 2 elements, first string, second 'again', last 'again'; hooks run: Injector 1, Late 1; live: 2 elements
UserCache\Cache chain: false; nothing stored; hooks run: Injector 1, Late 8; live: 3 elements
UserCache\Cache throw: RuntimeException: late hook failed; nothing stored; hooks run: Injector 1, Late 1; live: 3 elements
bool(true)
int(1)
Resident\Cache grow: true; 303 elements, first Late, second 't1', last 299; hooks run: Injector 1, Late 1; live: 303 elements
Resident\Cache grow (declared): true; 303 elements, first Late, second 't1', last 299; hooks run: Injector 1, Late 1; live: 303 elements
Resident\Cache write: true; 3 elements, first Late, second 'written', last 't2'; hooks run: Injector 1, Late 1; live: 3 elements
Resident\Cache write (declared): true; 3 elements, first Late, second 'written', last 't2'; hooks run: Injector 1, Late 1; live: 3 elements
Resident\Cache free: true; 2 elements, first string, second 'again', last 'again'; hooks run: Injector 1, Late 1; live: 2 elements
Resident\Cache chain: Error: The value changed while it was being cached (a __serialize() or __sleep() hook modified it); nothing stored; hooks run: Injector 1, Late 8; live: 3 elements
Resident\Cache throw: RuntimeException: late hook failed; nothing stored; hooks run: Injector 1, Late 1; live: 3 elements
bool(true)
int(1)
