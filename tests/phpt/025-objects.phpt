--TEST--
Object records: no constructor, typed/readonly/uninitialized properties, enums, identity, fresh objects per fetch, strings still shared
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
class Counted
{
    public static int $constructed = 0;
    public function __construct(public readonly int $id, public ?string $label = null, protected array $tags = [])
    {
        self::$constructed++;
    }
}
class Partial { public int $set = 1; public int $unset; public ?Partial $peer = null; }
enum Status: int { case Active = 1; case Gone = 2; }

$c = Resident\Cache::pool('objects');
$o = new Counted(7, 'seven', ['a', 'b']);
$c->store('o', $o);
$before = Counted::$constructed;
$f = $c->fetch('o');
var_dump(Counted::$constructed === $before);          // no constructor ran
var_dump($f == $o, $f !== $o, $f->id, $f->label);
try {
    $f->id = 8;                                         // readonly survives
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->fetch('o') !== $f);                        // two fetches, two objects

$p = new Partial;
$c->store('p', $p);
$g = $c->fetch('p');
try {
    echo $g->unset;
} catch (Error $e) {
    echo $e->getMessage(), "\n";                        // still uninitialized
}
$g->unset = 5;
var_dump($g->unset, (new ReflectionProperty(Partial::class, 'unset'))->isInitialized($c->fetch('p')));

$c->store('e', [Status::Active, Status::Gone, Status::Active]);
[$a, $b, $a2] = $c->fetch('e');
var_dump($a === Status::Active, $b === Status::Gone, $a === $a2);

// Strings inside objects stay in shared memory: no request memory for them.
$big = new Counted(1, str_repeat('L', 100000));
$c->store('big', $big);
$c->fetch('big');
$m = memory_get_usage();
$keep = [];
for ($i = 0; $i < 20; $i++) {
    $keep[] = $c->fetch('big');
}
var_dump((memory_get_usage() - $m) / 20 < 1000);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(7)
string(5) "seven"
Cannot modify readonly property Counted::$id
bool(true)
Typed property Partial::$unset must not be accessed before initialization
int(5)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
