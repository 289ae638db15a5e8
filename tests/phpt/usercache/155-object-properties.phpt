--TEST--
UserCache: typed properties never assigned stay uninitialized (at the root, nested, readonly), a private property of a class that is not an ancestor and an empty property name read back as unserialize() gives them
--INI--
user_cache.enable_cli=1
--FILE--
<?php
class Partial
{
    public int $assigned = 0;
    public int $never;
    public ?string $nullableNever;
    public string $withDefault = 'default';
}

class Named
{
    public readonly int $id;

    public function __construct(public string $name)
    {
    }
}

#[AllowDynamicProperties]
class Loose
{
    public int $declared = 1;
}

$c = UserCache\Cache::getPool('object-properties');
$p = new Partial();
$p->assigned = 42;
$c->store('partial', ['root' => $p, 'list' => [new Partial()]]);
$back = $c->fetch('partial');
$initialized = fn (object $o, string $name) => (new ReflectionProperty($o, $name))->isInitialized($o);
var_dump($initialized($back['root'], 'assigned'), $initialized($back['root'], 'never'), $initialized($back['root'], 'nullableNever'),
    $back['root']->withDefault, $initialized($back['list'][0], 'never'), serialize($back['root']) === serialize($p));
try {
    $back['root']->never;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
$back['root']->never = 7;
var_dump($back['root']->never);

$c->store('named', new Named('n'));
$named = $c->fetch('named');
var_dump($initialized($named, 'id'), $named->name);

$foreign = unserialize('O:5:"Loose":1:{s:15:"' . "\0Missing\0secret" . '";i:42;}');
$c->store('foreign', $foreign);
var_dump($c->fetch('foreign') == $foreign, serialize($c->fetch('foreign')) === serialize($foreign));

$empty = new Loose();
$empty->{''} = 'empty-name';
$c->store('empty', [$empty, (object)['' => 'plain']]);
[$loose, $plain] = $c->fetch('empty');
var_dump(get_class($loose), get_object_vars($loose), get_object_vars($plain));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
string(7) "default"
bool(false)
bool(true)
Typed property Partial::$never must not be accessed before initialization
int(7)
bool(false)
string(1) "n"
bool(true)
bool(true)
string(5) "Loose"
array(2) {
  ["declared"]=>
  int(1)
  [""]=>
  string(10) "empty-name"
}
array(1) {
  [""]=>
  string(5) "plain"
}
