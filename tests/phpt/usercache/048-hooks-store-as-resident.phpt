--TEST--
UserCache: a Resident\Cache::store() that a hook of a value UserCache stores makes stores what Resident\Cache stores (an ArrayObject whose storage is an object), not what UserCache refuses; the UserCache store itself still refuses it, before and after the hook
--INI--
user_cache.enable_cli=1
resident.enable_cli=1
--FILE--
<?php
$backed = fn () => @new ArrayObject(new stdClass());
class Outer
{
    public static $make;

    public function __serialize(): array
    {
        var_dump(Resident\Cache::pool('nested')->store('ao', (self::$make)()));
        return ['x' => 1];
    }

    public function __unserialize(array $data): void
    {
    }
}
Outer::$make = $backed;
$c = UserCache\Cache::getPool('outer');
var_dump($c->store('plain', new Outer()));
foreach (['before' => [$backed(), new Outer()], 'after' => [new Outer(), $backed()]] as $where => $value) {
    try {
        $c->store($where, $value);
        echo "$where: stored\n";
    } catch (TypeError $e) {
        echo "$where: ", $e->getMessage(), "\n";
    }
}
var_dump(get_class(@Resident\Cache::pool('nested')->fetch('ao')), $c->has('before'), $c->has('after'));
?>
--EXPECT--
bool(true)
bool(true)
before: The state of the ArrayObject object cannot be stored in the user cache
bool(true)
after: The state of the ArrayObject object cannot be stored in the user cache
string(11) "ArrayObject"
bool(false)
bool(false)
