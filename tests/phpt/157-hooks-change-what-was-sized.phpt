--TEST--
A store sizes a value while running its hooks: a hook that grows or shrinks what was sized before it ran, puts a new object with a hook of its own in an array already sized (in memory an array freed by the hook had), or stores another value, still runs once, and the value comes back as the hooks left it
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Box
{
    public array $items = [];
}

final class Hook
{
    public static int $calls = 0;
    public static ?Closure $then = null;

    public function __construct(public string $name) {}

    public function __sleep(): array
    {
        self::$calls++;
        (self::$then)($this);
        return ['name'];
    }
}

final class Inner
{
    public static int $calls = 0;

    public function __construct(public string $tag) {}

    public function __serialize(): array
    {
        self::$calls++;
        return ['tag' => $this->tag . '+'];
    }

    public function __unserialize(array $data): void
    {
        $this->tag = $data['tag'];
    }
}

$c = Resident\Cache::pool('sized');

function round_trip(Resident\Cache $c, string $key, mixed $value): mixed
{
    Hook::$calls = Inner::$calls = 0;
    var_dump($c->store($key, $value));
    echo "hooks: ", Hook::$calls, " __sleep, ", Inner::$calls, " __serialize\n";
    return $c->fetch($key);
}

// Grows an array sized before the hook ran (the root's first property).
$box = new Box();
$box->items = ['a'];
Hook::$then = function () use ($box) {
    for ($i = 0; $i < 200; $i++) {
        $box->items[] = str_repeat(chr(98 + $i % 20), 100 + $i);
    }
};
$got = round_trip($c, 'grown', [$box, new Hook('grower')]);
echo count($got[0]->items), ' ', strlen($got[0]->items[200]), ' ', $got[1]->name, "\n";
var_dump($got[0]->items === $box->items);

// Shrinks it.
Hook::$then = function () use ($box) {
    $box->items = [];
};
$got = round_trip($c, 'shrunk', [$box, new Hook('shrinker')]);
var_dump($got[0]->items, $got[1]->name);

// Frees an array held twice, holding an object, sized already, and puts,
// held twice as well (where it likely takes the freed one's memory), an
// array holding an object whose own hook has not run.
$one = new Box();
$two = new Box();
$three = new Box();
$four = new Box();
$shared = ['x', new Box()];
$one->items = $shared;
$two->items = $shared;
unset($shared);
Hook::$then = function () use ($one, $two, $three, $four) {
    $inner = new Inner('late');
    $one->items = [];
    $two->items = [];
    $fresh = [$inner];
    $three->items = $fresh;
    $four->items = $fresh;
};
$got = round_trip($c, 'replaced', [$one, new Hook('replacer'), $three, $four, $two]);
var_dump($got[2]->items[0]->tag, $got[3]->items[0] === $got[2]->items[0], $got[0]->items, $got[4]->items);

// The same with an array of plain values freed: the store holds it until
// its hooks ran, so that its memory cannot come back as another array.
$one->items = $two->items = ['p', str_repeat('q', 2)];
Hook::$then = function () use ($one, $two, $three, $four) {
    $inner = new Inner('later');
    $one->items = [];
    $two->items = [];
    $fresh = [$inner];
    $three->items = $fresh;
    $four->items = $fresh;
};
$got = round_trip($c, 'replaced plain', [$one, new Hook('replacer'), $three, $four, $two]);
var_dump($got[2]->items[0]->tag, $got[3]->items[0] === $got[2]->items[0], $got[0]->items, $got[4]->items);

// Stores another value from inside the hook.
Hook::$then = function (Hook $h) use ($c) {
    if ($h->name === 'outer') {
        var_dump($c->store('inner', [new Hook('inner'), str_repeat('i', 300)]));
    }
};
$got = round_trip($c, 'outer', [str_repeat('o', 300), new Hook('outer'), ['k' => str_repeat('o', 300)]]);
var_dump($got[1]->name, strlen($got[0]), $got[2]['k'] === $got[0]);
$inner = $c->fetch('inner');
var_dump($inner[0]->name, strlen($inner[1]));
?>
--EXPECT--
bool(true)
hooks: 1 __sleep, 0 __serialize
201 299 grower
bool(true)
bool(true)
hooks: 1 __sleep, 0 __serialize
array(0) {
}
string(8) "shrinker"
bool(true)
hooks: 1 __sleep, 1 __serialize
string(5) "late+"
bool(true)
array(0) {
}
array(0) {
}
bool(true)
hooks: 1 __sleep, 1 __serialize
string(6) "later+"
bool(true)
array(0) {
}
array(0) {
}
bool(true)
bool(true)
hooks: 2 __sleep, 0 __serialize
string(5) "outer"
int(300)
bool(true)
string(5) "inner"
int(300)
