--TEST--
UserCache: restore hooks run as unserialize() runs them: in its order (a hook's own fetch included); once one throws, the rest do not run and the objects from the thrower on get no destructor call; serialize() and unserialize() called by a hook start a context of their own even when the store or fetch runs inside a Serializable's; a hook may write, delete or clear the key being fetched
--INI--
user_cache.enable_cli=1
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use UserCache\Cache;

class Holder { public object $item; public string $name; }
class Woken {
    public static array $log = [];
    public Holder $holder;
    public bool $fetchInside = false;
    public function __wakeup(): void {
        self::$log[] = 'wakeup ' . $this->holder->name;
        if ($this->fetchInside) {
            Cache::getPool('order')->fetch('inner');
            self::$log[] = 'back in ' . $this->holder->name;
        }
    }
}
class Restored {
    public Holder $holder;
    public function __serialize(): array { return ['holder' => $this->holder]; }
    public function __unserialize(array $data): void {
        $this->holder = $data['holder'];
        Woken::$log[] = 'unserialize ' . $this->holder->name;
    }
}
function held(object $item, string $name): Holder {
    $h = new Holder();
    $h->item = $item;
    $h->name = $name;
    $item->holder = $h;
    return $h;
}

echo "order:\n";
$c = Cache::getPool('order');
$c->store('inner', held(new Restored(), 'inner'));
$w = new Woken();
$w->fetchInside = true;
$value = [held($w, 'outer'), held(new Restored(), 'next')];
$c->store('value', $value);
Woken::$log = [];
unserialize(serialize($value));
$native = Woken::$log;
Woken::$log = [];
$fetched = $c->fetch('value');
echo implode(', ', Woken::$log), "\n";
var_dump(Woken::$log === $native, $fetched[0]->item->holder === $fetched[0]);

echo "a hook throws:\n";
class Step {
    public static array $woken = [];
    public static array $destroyed = [];
    public static ?string $fails = null;
    public function __construct(public string $name) {}
    public function __wakeup(): void {
        self::$woken[] = $this->name;
        if ($this->name === self::$fails) {
            throw new RuntimeException("$this->name failed");
        }
    }
    public function __destruct() { self::$destroyed[] = $this->name; }
}
$steps = [new Step('a'), new Step('b'), new Step('c')];
$c->store('steps', $steps);
$serialized = serialize($steps);
$steps = null;
Step::$fails = 'b';
foreach (['fetch' => fn () => $c->fetch('steps'), 'unserialize' => fn () => unserialize($serialized)] as $how => $restore) {
    Step::$woken = Step::$destroyed = [];
    try {
        $restore();
    } catch (RuntimeException $e) {
        printf("%s: %s; woken %s; destroyed %s\n", $how, $e->getMessage(), implode(',', Step::$woken), implode(',', Step::$destroyed));
    }
}
Step::$fails = null;
Step::$woken = [];
var_dump(count($c->fetch('steps')), implode(',', Step::$woken));

class CatchesInside {
    public function __wakeup(): void {
        try {
            Cache::getPool('order')->fetch('steps');
        } catch (RuntimeException $e) {
            echo 'caught inside: ', $e->getMessage(), "\n";
        }
    }
}
$c->store('catching', [new CatchesInside(), held(new Restored(), 'after')]);
Step::$fails = 'a';
Woken::$log = [];
$fetched = $c->fetch('catching');
echo implode(', ', Woken::$log), "\n";
Step::$fails = null;

echo "contexts of their own:\n";
const SHARED_TWICE = 'a:2:{i:0;O:8:"stdClass":1:{s:3:"tag";s:4:"hook";}i:1;r:2;}';
class UnserializesInWakeup {
    public $got;
    public function __wakeup(): void { $this->got = unserialize(SHARED_TWICE); }
}
class SerializesInHook {
    public $blob;
    public function __serialize(): array {
        $o = (object) ['tag' => 'hook'];
        return ['blob' => serialize([$o, $o])];
    }
    public function __unserialize(array $data): void { $this->blob = $data['blob']; }
}
class Wrapper implements Serializable {
    public static $got;
    public function serialize(): string {
        var_dump(Cache::getPool('contexts')->store('serializes', new SerializesInHook()));
        return '';
    }
    public function unserialize(string $data): void {
        self::$got = Cache::getPool('contexts')->fetch('unserializes');
    }
}
Cache::getPool('contexts')->store('unserializes', new UnserializesInWakeup());
$outer = unserialize('a:2:{i:0;O:8:"stdClass":1:{s:3:"tag";s:5:"outer";}i:1;C:7:"Wrapper":0:{}}');
var_dump($outer[0]->tag, Wrapper::$got->got[1]->tag);
serialize([(object) ['tag' => 'outer'], new Wrapper()]);
$blob = Cache::getPool('contexts')->fetch('serializes')->blob;
echo $blob, "\n";
var_dump(unserialize($blob)[1]->tag);

echo "a hook writes the key being fetched:\n";
class Writes {
    public static $returned;
    public function __construct(public string $action) {}
    public function __wakeup(): void {
        $c = Cache::getPool('writes');
        self::$returned = match ($this->action) {
            'store' => $c->store('key', 'from the hook'),
            'delete' => $c->delete('key'),
            'clear' => $c->clear(),
            'deletePool' => Cache::deletePool('writes'),
        };
    }
}
foreach (['store', 'delete', 'clear', 'deletePool'] as $action) {
    $c = Cache::getPool('writes');
    $c->store('key', [new Writes($action), str_repeat('p', 5000)]);
    $c->store('other', 'other');
    $got = $c->fetch('key');
    $now = Cache::getPool('writes');
    printf("%s: %s, got %s, then %s, other %s, same pool %s\n", $action, var_export(Writes::$returned, true),
        var_export($got[0]->action === $action && strlen($got[1]) === 5000, true),
        var_export($now->fetch('key', 'miss'), true), var_export($now->fetch('other', 'miss'), true), var_export($now === $c, true));
    $now->clear();
}
?>
--EXPECT--
order:
wakeup outer, unserialize inner, back in outer, unserialize next
bool(true)
bool(true)
a hook throws:
fetch: b failed; woken a,b; destroyed a
unserialize: b failed; woken a,b; destroyed a
int(3)
string(5) "a,b,c"
caught inside: a failed
unserialize after
contexts of their own:
string(5) "outer"
string(4) "hook"
bool(true)
a:2:{i:0;O:8:"stdClass":1:{s:3:"tag";s:4:"hook";}i:1;r:2;}
string(4) "hook"
a hook writes the key being fetched:
store: true, got true, then 'from the hook', other 'other', same pool true
delete: true, got true, then 'miss', other 'other', same pool true
clear: true, got true, then 'miss', other 'miss', same pool true
deletePool: true, got true, then 'miss', other 'miss', same pool false
