--TEST--
RequestOverStatic lazy restore: a dynamic property written to an object with a property pending, and the cycle collector running over it
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.testing=1
resident.zero_copy=on
--FILE--
<?php
use Resident\Testing;
$c = Resident\Cache::pool('gc');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('#[AllowDynamicProperties] class Holder { public $a = null; public $n = 1; }');
    eval('class Alpha { public $x = "alpha"; }');
    $h = new Holder; $h->a = new Alpha;
    $c->store('h', $h);
    exit(0);
}
pcntl_waitpid($pid, $st);
eval('#[AllowDynamicProperties] class Holder { public $a = null; public $n = 1; }');
spl_autoload_register(function ($cl) { echo "(autoload $cl)\n"; eval('class Alpha { public $x = "alpha"; }'); });
$h = Testing::fetchLazily($c, 'h');
$h->dyn = new stdClass;
$h->dyn->back = $h;
$h->dyn->list = [1, 2, 3];
var_dump(Testing::isShell($h));
for ($i = 0; $i < 3; $i++) { $o = new stdClass; $o->self = $o; unset($o); }
var_dump(gc_collect_cycles() >= 0);
var_dump($h->dyn->list, $h->a->x, Testing::isShell($h));
$w = WeakReference::create($h->dyn);
unset($h);
gc_collect_cycles();
echo "done\n";
?>
--EXPECT--
bool(true)
bool(true)
(autoload Alpha)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
string(5) "alpha"
bool(false)
done
