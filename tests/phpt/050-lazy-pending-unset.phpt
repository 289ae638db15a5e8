--TEST--
RequestOverStatic lazy restore: unset() on an object with a property pending, of another property or of the pending one, leaves the object whole
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.testing=1
resident.zero_copy=on
--FILE--
<?php
use Resident\Testing;

$defs = [
    'Box' => 'class Box { public string $label = ""; public $x = 1; public ?Inner $inner = null; public $tail = "t"; }',
    'Inner' => 'class Inner { public $v = "inner"; }',
];
$c = Resident\Cache::pool('pending-unset');
$pid = pcntl_fork();
if ($pid === 0) {
    foreach ($defs as $code) {
        eval($code);
    }
    $boxes = [];
    foreach (['one', 'two', 'three'] as $label) {
        $b = new Box;
        $b->label = $label;
        $b->inner = new Inner;
        $boxes[] = $b;
    }
    $c->store('boxes', $boxes);
    exit(0);
}
pcntl_waitpid($pid, $status);

spl_autoload_register(function ($class) use ($defs) {
    echo "  (autoload $class)\n";
    eval($defs[$class]);
});
[$one, $two, $three] = Testing::fetchLazily($c, 'boxes');

echo "-- a property read, another pending\n";
echo $one->label, ' ', $one->tail, "\n";
$one->x = 2;
var_dump(Testing::isShell($one), class_exists('Inner', false));

echo "-- unset() of another property\n";
unset($two->x);
var_dump(Testing::isShell($two), isset($two->x), class_exists('Inner', false));
var_dump($two->inner->v);

echo "-- unset() of the pending property itself\n";
unset($three->inner);
var_dump(Testing::isShell($three), isset($three->inner));
$three->inner = new Inner;
$three->inner->v = 'new';

echo "-- after all that\n";
var_dump(Testing::isShell($one), $one->inner->v, $one->x, Testing::isShell($one));
var_dump($two, $three);
--EXPECT--
  (autoload Box)
-- a property read, another pending
one t
bool(true)
bool(false)
-- unset() of another property
  (autoload Inner)
bool(false)
bool(false)
bool(true)
string(5) "inner"
-- unset() of the pending property itself
bool(false)
bool(false)
-- after all that
bool(true)
string(5) "inner"
int(2)
bool(false)
object(Box)#4 (3) {
  ["label"]=>
  string(3) "two"
  ["inner"]=>
  object(Inner)#6 (1) {
    ["v"]=>
    string(5) "inner"
  }
  ["tail"]=>
  string(1) "t"
}
object(Box)#5 (4) {
  ["label"]=>
  string(5) "three"
  ["x"]=>
  int(1)
  ["inner"]=>
  object(Inner)#8 (1) {
    ["v"]=>
    string(3) "new"
  }
  ["tail"]=>
  string(1) "t"
}
