--TEST--
Objects: properties that hold their declared default are left out of the record and come back exactly, also after the class changed its defaults
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
// Each "deploy" is a process with its own version of the class.
function deploy(string $code, callable $then): void
{
    if (pcntl_fork() === 0) {
        eval($code);
        $then(Resident\Cache::pool('defaults'));
        exit(0);
    }
    pcntl_wait($status);
}
function same(object $a, object $b): string
{
    return var_export($a, true) === var_export($b, true) ? 'same' : "DIFFERENT:\n" . var_export($a, true) . "\n" . var_export($b, true);
}

$v1 = 'class Item {
    public $name = "widget";
    public $count = 0;
    public float $ratio = 0.0;
    public $flag = false;
    public $missing = null;
    public $list = [1, 2];
    protected $note = "n";
    private $secret = 1.5;
}
enum Level { case High; }
class Tagged { public $levels = [Level::High, "k" => ["x" => 1.5]]; public $plain = ["a" => [1, [2]], 5 => "five"]; }';

deploy($v1, function ($cache) {
    $plain = new Item();                 // every property at its default
    $changed = new Item();
    $changed->count = "0";               // equal to the default, not identical
    $changed->ratio = -0.0;              // differs in its sign bit only
    $changed->flag = null;
    $changed->list = [1, 2];             // an equal array, not the default's
    $nan = new Item();
    $nan->ratio = NAN;
    $cache->store('plain', $plain);
    $cache->store('changed', $changed);
    $cache->store('nan', $nan);
    $cache->store('many', [$plain, $changed, new Item()]);
    $cache->store('tagged', new Tagged());
    foreach (['plain' => $plain, 'changed' => $changed] as $k => $v) {
        echo "v1 $k: ", same($cache->fetch($k), unserialize(serialize($v))), "\n";
    }
    $f = $cache->fetch('changed');
    var_dump($f->count, $f->ratio, fdiv(1, $f->ratio), $f->flag);
    var_dump(is_nan($cache->fetch('nan')->ratio));
    [$a, $b, $c] = $cache->fetch('many');
    echo "v1 many: ", same($a, $plain), ' ', same($b, $changed), ' ', same($c, new Item()), "\n";
    $t = $cache->fetch('tagged');
    echo "v1 tagged: ", same($t, new Tagged()), ' ', var_export($t->levels[0] === Level::High, true), "\n";
    // What v2 should see: what unserialize() gives from v1's data.
    $cache->store('expect-plain', serialize($plain));
    $cache->store('expect-changed', serialize($changed));
});

// v2: every default changed, a property added in front (the slots move).
deploy('class Item {
    public $added = "new";
    public $name = "gadget";
    public $count = 7;
    public float $ratio = 2.5;
    public $flag = true;
    public $missing = "here";
    public $list = [];
    protected $note = "m";
    private $secret = 9.0;
}', function ($cache) {
    foreach (['plain', 'changed'] as $k) {
        echo "v2 $k: ", same($cache->fetch($k), unserialize($cache->fetch("expect-$k"))), "\n";
    }
    var_dump($cache->fetch('plain'));
});
?>
--EXPECT--
v1 plain: same
v1 changed: same
string(1) "0"
float(-0)
float(-INF)
NULL
bool(true)
v1 many: same same same
v1 tagged: same true
v2 plain: same
v2 changed: same
object(Item)#3 (9) {
  ["added"]=>
  string(3) "new"
  ["name"]=>
  string(6) "widget"
  ["count"]=>
  int(0)
  ["ratio"]=>
  float(0)
  ["flag"]=>
  bool(false)
  ["missing"]=>
  NULL
  ["list"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["note":protected]=>
  string(1) "n"
  ["secret":"Item":private]=>
  float(1.5)
}
