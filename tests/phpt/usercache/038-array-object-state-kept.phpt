--TEST--
UserCache: an ArrayObject or ArrayIterator whose storage a later hook writes (they write it in place, also once __serialize() gave it out) is stored as it was when its state was taken, as serialize() keeps it: appends and new keys from a hook of an element or of an object met after it, a key replaced, an element unset; a self-backed ArrayObject still stores
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Writer
{
    public static int $runs = 0;
    public function __construct(public ArrayObject|ArrayIterator|null $target, public string $how) {}
    public function __serialize(): array
    {
        self::$runs++;
        switch ($this->how) {
            case 'append':
                for ($i = 0; $i < 200; $i++) {
                    $this->target[] = str_repeat('a', 40) . $i;
                }
                break;
            case 'keys':
                for ($i = 0; $i < 200; $i++) {
                    $this->target["k$i"] = $i;
                }
                break;
            case 'replace':
                $this->target['b'] = 'replaced';
                break;
            case 'unset':
                unset($this->target['c']);
                break;
        }
        return [];
    }
    public function __unserialize(array $data): void {}
}

#[AllowDynamicProperties]
final class SelfBacked extends ArrayObject {}

$c = UserCache\Cache::getPool('array-object-state');

function show(string $label, mixed $live, mixed $got): void
{
    $keys = fn ($x) => implode(',', array_map(fn ($k) => is_object($x[$k]) ? "$k:" . get_class($x[$k]) : "$k=" . $x[$k],
        array_slice(array_keys($x->getArrayCopy()), 0, 4)));
    printf("%s: live %d, stored %d [%s], %d hook run\n", $label, count($live), count($got), $keys($got), Writer::$runs);
}

foreach (['append', 'keys', 'replace', 'unset'] as $how) {
    /* The writer is an element of the storage it writes. */
    Writer::$runs = 0;
    $ao = new ArrayObject();
    $ao['w'] = new Writer($ao, $how);
    $ao['b'] = 'y';
    $ao['c'] = 'z';
    var_dump($c->store('ao', $ao));
    show("element $how", $ao, $c->fetch('ao'));
    $ao['w']->target = null;

    /* The writer is met after the ArrayIterator. */
    Writer::$runs = 0;
    $it = new ArrayIterator(['b' => 'y', 'c' => 'z']);
    var_dump($c->store('later', [$it, new Writer($it, $how)]));
    show("later $how", $it, $c->fetch('later')[0]);
}

$self = new SelfBacked();
// PHP 8.5 deprecates an object as the storage (itself included).
@$self->exchangeArray($self);
$self['w'] = new Writer($self, 'keys');
$self['c'] = 'z';
var_dump($c->store('self', $self), get_class($c->fetch('self')));
$self['w']->target = null;
?>
--EXPECT--
bool(true)
element append: live 203, stored 3 [w:Writer,b=y,c=z], 1 hook run
bool(true)
later append: live 202, stored 2 [b=y,c=z], 1 hook run
bool(true)
element keys: live 203, stored 3 [w:Writer,b=y,c=z], 1 hook run
bool(true)
later keys: live 202, stored 2 [b=y,c=z], 1 hook run
bool(true)
element replace: live 3, stored 3 [w:Writer,b=y,c=z], 1 hook run
bool(true)
later replace: live 2, stored 2 [b=y,c=z], 1 hook run
bool(true)
element unset: live 2, stored 3 [w:Writer,b=y,c=z], 1 hook run
bool(true)
later unset: live 1, stored 2 [b=y,c=z], 1 hook run
bool(true)
string(10) "SelfBacked"
