--TEST--
A hook that drops the last reference to its own object: the object is held until store() is done, so its destructor runs then (as when serialize() returns), not between the store's passes, where what it made took the freed object's address and handle and the store failed ("The value changed while it was being cached")
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Holder { public $inner; public $later; }
final class Later
{
    public $v = 'later';
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $data): void { $this->v = $data['v']; }
}
final class Drops
{
    public static $holder;
    public $a = 1;
    public function __serialize(): array { self::$holder->inner = null; return ['a' => 2]; }
    public function __unserialize(array $data): void { $this->a = $data['a']; }
    public function __destruct() { echo "destructor\n"; self::$holder->later = new Later(); }
}
$holder = new Holder();
$holder->inner = new Drops();
Drops::$holder = $holder;
$c = Resident\Cache::pool('hook-drops-object');
var_dump($c->store('h', $holder));
echo "stored; live: ", get_class($holder->later), "\n";
var_dump($c->fetch('h'));
?>
--EXPECT--
destructor
bool(true)
stored; live: Later
object(Holder)#2 (2) {
  ["inner"]=>
  NULL
  ["later"]=>
  NULL
}
