--TEST--
UserCache: a __sleep(), __serialize() or Serializable::serialize() that drops the last reference to its own object while store() walks it (it crashed store(): the walk read the freed object): the value is stored as the hooks left it, a holder whose __serialize() took the object first keeps it (one whose __sleep() named it keeps it too, as serialize() does), objects are held until the store ends (a destructor runs then, also when a later hook throws), and the cache goes on working
--INI--
resident.enable_cli=1
zend.exception_ignore_args=1
--FILE--
<?php
final class Holder { public $inner; }
final class HolderTakingFirst
{
    public $inner;
    public function __serialize(): array { return ['inner' => $this->inner]; }
    public function __unserialize(array $data): void { $this->inner = $data['inner']; }
}
final class HolderNamingFirst
{
    public $inner;
    public function __sleep(): array { return ['inner']; }
}
final class SleepDrops
{
    public static $holder;
    public $a = 1;
    public function __sleep(): array { self::$holder->inner = null; return ['a']; }
}
final class SerializeDrops
{
    public static $holder;
    public $a = 2;
    public function __serialize(): array { self::$holder->inner = null; return ['a' => $this->a]; }
    public function __unserialize(array $data): void { $this->a = $data['a']; }
}
final class SerializableDrops implements Serializable
{
    public static $holder;
    public $a = 3;
    public function serialize(): string { self::$holder->inner = null; return (string)$this->a; }
    public function unserialize(string $data): void { $this->a = (int)$data; }
    public function __serialize(): array { self::$holder->inner = null; return ['a' => $this->a]; }
    public function __unserialize(array $data): void { $this->a = $data['a']; }
}
final class Counted
{
    public static int $destroyed = 0;
    public function __serialize(): array { return ['v' => 7]; }
    public function __unserialize(array $data): void {}
    public function __destruct() { self::$destroyed++; }
}
final class Throws
{
    public function __serialize(): array { throw new RuntimeException('the hook threw'); }
    public function __unserialize(array $data): void {}
}

$c = UserCache\Cache::getPool('hooks-drop-their-object');
foreach ([SleepDrops::class, SerializeDrops::class, SerializableDrops::class] as $dropper) {
    foreach ([Holder::class, HolderTakingFirst::class, HolderNamingFirst::class] as $holderClass) {
        $holder = new $holderClass();
        $holder->inner = new $dropper();
        $dropper::$holder = $holder;
        $stored = $c->store('v', $holder);
        $fetched = $c->fetch('v');
        echo "$dropper in $holderClass: ", json_encode($stored), ', live inner ', json_encode($holder->inner),
            ', fetched inner ', is_object($fetched->inner) ? get_class($fetched->inner) . ' a=' . $fetched->inner->a : json_encode($fetched->inner), "\n";
        $dropper::$holder = null;
    }
}

try {
    $c->store('failed', [new Counted(), new Throws()]);
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
echo "destroyed after the failed store: ", Counted::$destroyed, "\n";
var_dump($c->has('failed'), $c->store('n', 7), $c->fetch('n'));
?>
--EXPECT--
SleepDrops in Holder: true, live inner null, fetched inner null
SleepDrops in HolderTakingFirst: true, live inner null, fetched inner SleepDrops a=1
SleepDrops in HolderNamingFirst: true, live inner null, fetched inner SleepDrops a=1
SerializeDrops in Holder: true, live inner null, fetched inner null
SerializeDrops in HolderTakingFirst: true, live inner null, fetched inner SerializeDrops a=2
SerializeDrops in HolderNamingFirst: true, live inner null, fetched inner SerializeDrops a=2
SerializableDrops in Holder: true, live inner null, fetched inner null
SerializableDrops in HolderTakingFirst: true, live inner null, fetched inner SerializableDrops a=3
SerializableDrops in HolderNamingFirst: true, live inner null, fetched inner SerializableDrops a=3
the hook threw
destroyed after the failed store: 1
bool(false)
bool(true)
int(7)
