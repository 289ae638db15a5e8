--TEST--
storeMultiple() plans every value before it stores any: a value that the __sleep() of a later one changes in between is stored as it is when written, or refused with the TypeError that names it; the process is never aborted
--INI--
resident.enable_cli=1
resident.testing=1
--FILE--
<?php
class Target { public $data = 'small'; }
class Changer
{
    public static $change;
    public $target;
    public function __construct(Target $t) { $this->target = $t; }
    public function __sleep() { (self::$change)($this->target); return []; }
}

$c = Resident\Cache::pool('changed');
$cases = [
    'grows' => fn (Target $t) => $t->data = str_repeat('x', 100000),
    'gains objects' => fn (Target $t) => $t->data = [new Target, new Target, 'again' => $t],
    'shrinks' => fn (Target $t) => $t->data = 'tiny',
    'becomes uncacheable' => fn (Target $t) => $t->data = ['ok', eval('return fn () => 1;')],
];
foreach ($cases as $what => $change) {
    echo "$what:\n";
    $c->clear();
    $t = new Target;
    if ($what === 'shrinks') {
        $t->data = str_repeat('y', 50000);
    }
    Changer::$change = $change;
    try {
        var_dump($c->storeMultiple(['first' => $t, 'second' => new Changer($t)]));
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    $got = $c->fetch('first');
    echo '  first: ', $got === null ? 'not stored' : (serialize($got) === serialize($t) ? 'as it was when stored' : 'DIFFERENT'), "\n";
    echo '  second: ', $c->exists('second') ? 'stored' : 'not stored', "\n";
    echo '  store: ', Resident\Testing::check() ?? 'consistent', "\n";
}
?>
--EXPECT--
grows:
array(0) {
}
  first: as it was when stored
  second: stored
  store: consistent
gains objects:
array(0) {
}
  first: as it was when stored
  second: stored
  store: consistent
shrinks:
array(0) {
}
  first: as it was when stored
  second: stored
  store: consistent
becomes uncacheable:
TypeError: Resident\Cache::storeMultiple(): Argument #1 ($values) cannot be cached: $values['first']->data[1] is a Closure declared in eval()'d code
  first: not stored
  second: not stored
  store: consistent
