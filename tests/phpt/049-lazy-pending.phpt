--TEST--
RequestOverStatic lazy restore: a property whose value needs a class not loaded yet stays pending until used, so restoring autoloads only the classes a request uses
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
    'Holder' => 'class Holder { public ?Alpha $a = null; public array $betas = []; public $gamma = null; public int $n = 0; }',
    'Alpha' => 'class Alpha { public function __construct(public string $name = "") {} }',
    'Beta' => 'class Beta { public function __construct(public int $i = 0, public ?Holder $owner = null) {} }',
    'Gamma' => 'class Gamma { public $g = "gamma"; }',
    'Delta' => 'class Delta { public $d = "delta"; }',
];
$c = Resident\Cache::pool('pending');
$pid = pcntl_fork();
if ($pid === 0) {
    // Another process, where every class is loaded, stores the graph.
    foreach ($defs as $code) {
        eval($code);
    }
    $h = new Holder;
    $h->a = new Alpha('alpha');
    $h->betas = [new Beta(1, $h), new Beta(2, $h)];
    $h->gamma = new Gamma;
    $h->n = 3;
    $c->store('h', ['holder' => $h, 'list' => [new Delta]]);
    exit(0);
}
pcntl_waitpid($pid, $status);

spl_autoload_register(function ($class) use ($defs) {
    echo "  (autoload $class)\n";
    eval($defs[$class]);
});
echo "-- fetch\n";
$v = Testing::fetchLazily($c, 'h');
$h = $v['holder'];
echo "-- a property whose value needs no class\n";
echo $h->n, "\n";
var_dump(Testing::isShell($h), class_exists('Alpha', false), class_exists('Beta', false), class_exists('Gamma', false));
echo "-- the properties that need one, when used\n";
echo $h->a->name, "\n";
echo count($h->betas), ' ', $h->betas[1]->owner === $h ? 'the same holder' : 'another holder', "\n";
var_dump(Testing::isShell($h), class_exists('Gamma', false));
var_dump(Testing::lazyUnchanged());
$h->n = 4;
var_dump(Testing::lazyUnchanged());
$h->n = 3;
var_dump(isset($h->gamma), Testing::isShell($h));
var_dump(Testing::lazyUnchanged());
echo "-- the whole object\n";
var_dump($h);
--EXPECT--
-- fetch
  (autoload Holder)
  (autoload Delta)
-- a property whose value needs no class
3
bool(true)
bool(false)
bool(false)
bool(false)
-- the properties that need one, when used
  (autoload Alpha)
alpha
  (autoload Beta)
2 the same holder
bool(true)
bool(false)
bool(true)
bool(false)
  (autoload Gamma)
bool(true)
bool(false)
bool(true)
-- the whole object
object(Holder)#3 (4) {
  ["a"]=>
  object(Alpha)#5 (1) {
    ["name"]=>
    string(5) "alpha"
  }
  ["betas"]=>
  array(2) {
    [0]=>
    object(Beta)#6 (2) {
      ["i"]=>
      int(1)
      ["owner"]=>
      *RECURSION*
    }
    [1]=>
    object(Beta)#7 (2) {
      ["i"]=>
      int(2)
      ["owner"]=>
      *RECURSION*
    }
  }
  ["gamma"]=>
  object(Gamma)#8 (1) {
    ["g"]=>
    string(5) "gamma"
  }
  ["n"]=>
  int(3)
}
