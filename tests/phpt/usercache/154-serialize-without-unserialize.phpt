--TEST--
UserCache: an object whose class has __serialize() and no __unserialize() reads back as unserialize() gives it: the data lands in its properties by name (private, typed, dynamic), a value its declared type refuses is unserialize()'s TypeError, a name unserialize() cannot unmangle is its notice and a miss whose entry goes (Resident\Cache: an Error); it threw "Invalid callback" before
--INI--
user_cache.enable_cli=1
resident.enable_cli=1
--FILE--
<?php
#[AllowDynamicProperties]
class Exported
{
    public $plain = 1;
    private $hidden = 0;
    public int $count = 0;

    public function __serialize(): array
    {
        return ['plain' => 5, "\0Exported\0hidden" => 3, 'count' => 9, 'extra' => [1, 2]];
    }

    public function hidden(): int
    {
        return $this->hidden;
    }
}

class Mistyped
{
    public int $count = 0;

    public function __serialize(): array
    {
        return ['count' => 'many'];
    }
}

class Mangled
{
    public $a = 1;

    public function __serialize(): array
    {
        return ["\0x" => 1, 'a' => 5];
    }
}

$c = UserCache\Cache::getPool('serialize-only');
var_dump($c->store('exported', new Exported()));
$e = $c->fetch('exported');
var_dump($e == unserialize(serialize(new Exported())), $e->plain, $e->hidden(), $e->count, $e->extra);

var_dump($c->store('mistyped', new Mistyped()));
foreach ([fn () => $c->fetch('mistyped'), fn () => unserialize(serialize(new Mistyped()))] as $read) {
    try {
        $read();
    } catch (TypeError $t) {
        echo $t->getMessage(), "\n";
    }
}
var_dump($c->has('mistyped'));

var_dump($c->store('mangled', new Mangled()));
var_dump($c->fetch('mangled', 'DEFAULT'), $c->has('mangled'));

$r = Resident\Cache::pool('serialize-only');
$r->store('mangled', new Mangled());
try {
    $r->fetch('mangled');
} catch (Error $err) {
    echo get_class($err), ': ', $err->getMessage(), "\n";
}
?>
--EXPECTF--
bool(true)
bool(true)
int(5)
int(3)
int(9)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
Cannot assign string to property Mistyped::$count of type int
Cannot assign string to property Mistyped::$count of type int
bool(true)
bool(true)

Notice: Illegal member variable name in %s on line %d

Notice: Illegal member variable name in %s on line %d
string(7) "DEFAULT"
bool(false)

Notice: Illegal member variable name in %s on line %d

Notice: Illegal member variable name in %s on line %d
Error: Cannot restore a cached Mangled: a property name is not valid
