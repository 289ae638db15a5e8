--TEST--
Objects of one class whose __sleep() names other properties from one object to the next, or whose dynamic properties differ, each come back with their own selection, as unserialize(serialize()) gives them (consecutive objects of a class share a record layout only when their names are the same)
--INI--
resident.enable_cli=1
--FILE--
<?php
class Base { private string $secret = 'base-secret'; protected string $kind = 'base'; }
class Item extends Base
{
    public int $id;
    public ?string $note = null;
    private string $secret = 'item-secret';
    public static array $picks = [];
    public array $tags = ['t'];
    public function __construct(int $id) { $this->id = $id; $this->note = "n$id"; }
    public function __sleep(): array { return self::$picks[$this->id]; }
}
#[AllowDynamicProperties]
class Bag { public int $n = 0; }

$items = [];
foreach ([['id', 'note'], ['id', 'note'], ['id', 'note'], ['note', 'id'], ['id', 'secret'], ['id', 'kind'], ['id', 'note', 'tags'], ['id'], ['id', 'note']] as $i => $pick) {
    Item::$picks[$i] = $pick;
    $item = new Item($i);
    $item->tags[] = "x$i";
    if ($i === 2) {
        unset($item->note);   // selected, but not set: left out, as serialize() leaves it
    }
    $items[] = $item;
}
$bags = [];
foreach ([['a' => 1], ['a' => 1], ['b' => 2], ['a' => 1, 'b' => 2], ['b' => 2, 'a' => 1], []] as $i => $dyn) {
    $bag = new Bag();
    $bag->n = $i;
    foreach ($dyn as $k => $v) {
        $bag->$k = $v;
    }
    $bags[] = $bag;
}
$value = ['items' => $items, 'bags' => $bags];
$dump = function (mixed $v): string {
    ob_start();
    var_dump($v);
    return preg_replace('/#\d+/', '#', ob_get_clean());   // object ids differ
};
$want = unserialize(serialize($value));
foreach ([0, 1] as $round) {
    $c = Resident\Cache::pool("p$round");
    $c->store('v', $value);
    $got = $c->fetch('v');
    echo $round ? 'again: ' : '', 'var_dump ', var_export($dump($got) === $dump($want), true),
        ', serialize ', var_export(serialize($got) === serialize($want), true), "\n";
}
// What each item kept: the selection of its own __sleep().
foreach ($got['items'] as $item) {
    echo implode(',', Item::$picks[$item->id]), ': note ', (new ReflectionProperty(Item::class, 'note'))->isInitialized($item) ? var_export($item->note, true) : 'unset',
        ', tags ', implode(',', $item->tags), "\n";
}
echo implode(' ', array_map(fn ($b) => json_encode(get_object_vars($b)), $got['bags'])), "\n";
?>
--EXPECT--
var_dump true, serialize true
again: var_dump true, serialize true
id,note: note 'n0', tags t
id,note: note 'n1', tags t
id,note: note NULL, tags t
note,id: note 'n3', tags t
id,secret: note NULL, tags t
id,kind: note NULL, tags t
id,note,tags: note 'n6', tags t,x6
id: note NULL, tags t
id,note: note 'n8', tags t
{"n":0,"a":1} {"n":1,"a":1} {"n":2,"b":2} {"n":3,"a":1,"b":2} {"n":4,"b":2,"a":1} {"n":5}
