--TEST--
remember(): computes on a miss, caches, propagates exceptions (releasing its lock), refuses bad results and arguments
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('remember');
$calls = 0;
$compute = function () use (&$calls) {
    $calls++;
    return ['built' => $calls];
};
var_dump($c->remember('report', $compute, 60), $c->remember('report', $compute, 60), $calls);
var_dump($c->fetch('report'));

try {
    $c->remember('failing', function () { throw new RuntimeException('compute failed'); });
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
// The lock was released: the next caller computes at once.
var_dump($c->remember('failing', fn() => 'recovered'));

try {
    $c->remember('closure', fn() => ['f' => eval('return fn () => 1;')]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->remember('closure', fn() => 'fine'));

// Falsy results are cached like any other.
$n = 0;
var_dump($c->remember('null', function () use (&$n) { $n++; return null; }), $c->remember('false', fn() => false));
var_dump($c->exists('null'), $c->exists('false'));

foreach ([fn() => $c->remember('k', fn() => 1, -1), fn() => $c->remember('k', fn() => 1, 10, -1),
          fn() => $c->remember('k', fn() => 1, 0, 10), fn() => $c->remember('', fn() => 1)] as $f) {
    try {
        $f();
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
array(1) {
  ["built"]=>
  int(1)
}
array(1) {
  ["built"]=>
  int(1)
}
int(1)
array(1) {
  ["built"]=>
  int(1)
}
compute failed
string(9) "recovered"
Resident\Cache::remember(): Argument #2 ($compute) cannot be cached: $compute()['f'] is a Closure declared in eval()'d code
string(4) "fine"
NULL
bool(false)
bool(true)
bool(true)
Resident\Cache::remember(): Argument #3 ($ttl) must be greater than or equal to 0
Resident\Cache::remember(): Argument #4 ($staleTtl) must be greater than or equal to 0
Resident\Cache::remember(): Argument #4 ($staleTtl) needs a TTL: a value that never expires is never stale
Resident\Cache::remember(): Argument #1 ($key) must not be empty
