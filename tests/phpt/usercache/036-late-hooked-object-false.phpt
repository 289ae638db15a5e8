--TEST--
UserCache: a hook that puts an object with a hook of its own where the store had walked already (the value changed while it was sized) makes store() return false, as the proposal does, instead of throwing; nothing is stored and the cache goes on working; Resident\Cache throws the Error naming what happened
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Late
{
    public static ?stdClass $owner = null;
    public function __serialize(): array
    {
        for ($i = 0; $i < 300; $i++) {
            self::$owner->list[] = $i;
        }
        return ['n' => 1];
    }
    public function __unserialize(array $data): void {}
}
final class Injector
{
    public function __serialize(): array
    {
        Late::$owner->list[] = new Late();
        return ['b' => 1];
    }
    public function __unserialize(array $data): void {}
}
$owner = new stdClass();
$owner->list = [];
Late::$owner = $owner;
$c = UserCache\Cache::getPool('late-hooked-object');
var_dump($c->store('v', [$owner, new Injector(), str_repeat('x', 2000)]));
var_dump($c->has('v'), $c->store('n', 1), $c->fetch('n'));

$owner->list = [];
try {
    Resident\Cache::pool('late-hooked-object')->store('v', [$owner, new Injector()]);
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
int(1)
Error: The value changed while it was being cached (a __serialize() or __sleep() hook modified it)
