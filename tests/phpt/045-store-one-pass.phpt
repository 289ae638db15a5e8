--TEST--
Store: a value whose root object's class was stored before is written in one pass into a reservation of the last size; larger values, values whose objects need a hook, and refused values fall back to the planned way
--INI--
resident.enable_cli=1
resident.testing=1
--FILE--
<?php
class Box
{
    public $label = 'box';
    public array $items = [];
    public ?Box $next = null;
}

class Hooked
{
    public function __construct(public string $v = 'h') {}
    public function __serialize(): array { return ['v' => strtoupper($this->v)]; }
    public function __unserialize(array $d): void { $this->v = $d['v'] . '!'; }
}

function box(string $label, array $items = [], ?Box $next = null): Box
{
    $b = new Box();
    $b->label = $label;
    $b->items = $items;
    $b->next = $next;
    return $b;
}

$c = Resident\Cache::pool('one-pass');
$n = 0;
function check(Resident\Cache $c, string $what, Box $v, string $key = 'k'): void
{
    global $n;
    $n++;
    var_dump($c->store($key, $v));
    $got = $c->fetch($key);
    $want = unserialize(serialize($v));
    $same = serialize($got) === serialize($want);
    $problem = Resident\Testing::check();
    printf("%-34s %s%s\n", $what, $same ? 'same' : 'DIFFERENT', $problem === null ? '' : " store: $problem");
}

check($c, 'first (planned)', box('a'));
check($c, 'same size', box('b'));
check($c, 'larger: does not fit', box(str_repeat('x', 5000)));
check($c, 'much smaller: gives back the rest', box('c'));
check($c, 'far larger than the guess', box('big', range(1, 200000)));
check($c, 'small again', box('c'));
check($c, 'a little larger', box('cc'));
check($c, 'list of objects', box('l', [box('1'), box('2'), 'k' => box('3')]));
$shared = box('s');
$arr = [$shared, $shared];
check($c, 'identity, shared arrays', box('i', ['a' => $arr, 'b' => $arr, 'same' => $shared]));
$cycle = box('cycle');
$cycle->next = $cycle;
check($c, 'cycle', $cycle);
$x = 1;
$refs = ['x' => &$x, 'y' => &$x];
check($c, 'references', box('r', $refs));
check($c, 'holds an object with a hook', box('h', [new Hooked('abc')]));
check($c, 'plain again', box('p'));
check($c, 'plain again, other key', box('q'), 'k2');

// Refused in the one-pass write: nothing is stored, nothing is left reserved.
try {
    $c->store('k', box('closure', [eval('return fn () => 1;')]));
} catch (TypeError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($c->fetch('k')->label, Resident\Testing::check());

// add() keeps what is there.
var_dump($c->add('k', box('other')), $c->fetch('k')->label);

// What a smaller value gave back is free again: the entry holds only its bytes.
$m = Resident\Cache::pool('one-pass-memory');
$m->store('big', box('z'));
$small = $m->info()['memory'];
$m->store('big', box(str_repeat('y', 20000)));
$large = $m->info()['memory'];
$m->store('big', box('z'));
var_dump($large >= $small + 20000, $m->info()['memory'] === $small, Resident\Testing::check());
echo "done $n\n";
?>
--EXPECT--
bool(true)
first (planned)                    same
bool(true)
same size                          same
bool(true)
larger: does not fit               same
bool(true)
much smaller: gives back the rest  same
bool(true)
far larger than the guess          same
bool(true)
small again                        same
bool(true)
a little larger                    same
bool(true)
list of objects                    same
bool(true)
identity, shared arrays            same
bool(true)
cycle                              same
bool(true)
references                         same
bool(true)
holds an object with a hook        same
bool(true)
plain again                        same
bool(true)
plain again, other key             same
TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->items[0] is a Closure declared in eval()'d code
string(1) "p"
NULL
bool(false)
string(1) "p"
bool(true)
bool(true)
NULL
done 14
