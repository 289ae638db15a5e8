--TEST--
UserCache: a Fiber switch inside a hook that a store runs (a Serializable's serialize(), __serialize(), __sleep()) is refused with the engine's FiberError and nothing is stored, while serialize() allows it; Serializable wins over __sleep()/__wakeup(), __serialize() over Serializable, as in serialize(); an object whose part could not be restored gets no destructor call, as with unserialize(); a fatal error in a store's hook leaves Fibers and serialize() working in shutdown functions
--INI--
user_cache.enable_cli=1
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use UserCache\Cache;

class SuspendsInSerialize implements Serializable {
    public function serialize() { Fiber::suspend('suspended'); return 'a'; }
    public function unserialize($data) {}
}
class SuspendsInMagic {
    public function __serialize(): array { Fiber::suspend('suspended'); return []; }
    public function __unserialize(array $data): void {}
}
class SuspendsInSleep {
    public $a = 1;
    public function __sleep(): array { Fiber::suspend('suspended'); return ['a']; }
}
$c = Cache::getPool('fibers');
foreach ([new SuspendsInSerialize(), new SuspendsInMagic(), new SuspendsInSleep()] as $i => $value) {
    $f = new Fiber(function () use ($c, $value, $i) {
        try {
            return $c->store("k$i", ['v' => $value]);
        } catch (FiberError $e) {
            return get_class($e) . ': ' . $e->getMessage();
        }
    });
    var_dump($f->start(), $f->getReturn(), $c->has("k$i"));
}
$native = new Fiber(fn () => serialize([new SuspendsInSerialize()]));
var_dump($native->start());
$native->resume();
var_dump($native->getReturn());

echo "which hook wins:\n";
class IfaceOverSleep implements Serializable {
    public int $kept = 0;
    public string $via = 'none';
    public function serialize() { return (string) $this->kept; }
    public function unserialize($data) { $this->kept = (int) $data; $this->via = 'interface'; }
    public function __sleep(): array { return ['kept']; }
    public function __wakeup(): void { $this->via = 'wakeup'; }
}
class MagicOverIface implements Serializable {
    public int $kept = 0;
    public string $via = 'none';
    public function serialize() { return 'x'; }
    public function unserialize($data) { $this->via = 'interface'; }
    public function __serialize(): array { return ['kept' => $this->kept]; }
    public function __unserialize(array $data): void { $this->kept = $data['kept']; $this->via = 'magic'; }
}
foreach ([new IfaceOverSleep(), new MagicOverIface()] as $v) {
    $v->kept = 5;
    $c->store('which', $v);
    $got = $c->fetch('which');
    $native = unserialize(serialize($v));
    var_dump($got->via, $got->via === $native->via && $got->kept === $native->kept);
}

echo "a part that cannot be restored:\n";
class CannotRestore implements Serializable {
    public function serialize() { return 'x'; }
    public function unserialize($data) { throw new RuntimeException('cannot restore'); }
}
class Holder {
    public $inner;
    public function __construct() { $this->inner = new CannotRestore(); }
    public function __wakeup() { echo "wakeup ran\n"; }
    public function __destruct() { echo "destructor ran\n"; }
}
var_dump(Cache::getPool('restore')->store('h', new Holder()));
foreach (['fetch' => fn () => Cache::getPool('restore')->fetch('h'), 'unserialize' => fn () => unserialize(serialize(new Holder()))] as $how => $read) {
    echo "$how:\n";
    try {
        $read();
    } catch (RuntimeException $e) {
        echo $e->getMessage(), "\n";
    }
}

echo "a fatal error in a store's hook:\n";
class Fatal implements Serializable {
    public function __construct(public stdClass $shared) {}
    public function serialize() { serialize([$this->shared]); eval('class Twice {} class Twice {}'); return 'x'; }
    public function unserialize($data) {}
}
$shared = new stdClass();
register_shutdown_function(function () use ($shared) {
    echo "shutdown\n";
    $f = new Fiber(fn () => Fiber::suspend('suspended'));
    var_dump($f->start());
    echo serialize([$shared, $shared]), "\n";
});
Cache::getPool('fatal')->store('k', new Fatal($shared));
echo "unreachable\n";
?>
--EXPECTF--
NULL
string(61) "FiberError: Cannot switch fibers in current execution context"
bool(false)
NULL
string(61) "FiberError: Cannot switch fibers in current execution context"
bool(false)
NULL
string(61) "FiberError: Cannot switch fibers in current execution context"
bool(false)
string(9) "suspended"
string(42) "a:1:{i:0;C:19:"SuspendsInSerialize":1:{a}}"
which hook wins:
string(9) "interface"
bool(true)
string(5) "magic"
bool(true)
a part that cannot be restored:
destructor ran
bool(true)
fetch:
cannot restore
unserialize:
destructor ran
cannot restore
a fatal error in a store's hook:

Fatal error: Cannot %s class Twice%s on line 1
shutdown
string(9) "suspended"
a:2:{i:0;O:8:"stdClass":0:{}i:1;r:2;}
