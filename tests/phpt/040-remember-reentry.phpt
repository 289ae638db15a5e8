--TEST--
remember(): a $compute that asks for its own key fails at once (it would wait a whole lease for itself); other keys and pools nest
--INI--
resident.enable_cli=1
resident.memory=8M
--FILE--
<?php
$c = Resident\Cache::pool('reentry');
$t = hrtime(true);
try {
    $c->remember('k', fn () => $c->remember('k', fn () => 1));
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump((hrtime(true) - $t) / 1e9 < 1.0);
var_dump($c->exists('k'));
// The lock went with the exception: the key can be computed now.
var_dump($c->remember('k', fn () => 'computed'));

// Caught inside: the outer compute goes on.
var_dump($c->remember('deep', function () use ($c) {
    try {
        return $c->remember('deep', fn () => 'never');
    } catch (Error $e) {
        return 'outer';
    }
}));

// Another key, and the same key in another pool, nest as usual.
var_dump($c->remember('a', fn () => $c->remember('b', fn () => 'b') . '+a'));
$other = Resident\Cache::pool('reentry-other');
var_dump($c->remember('x', fn () => $other->remember('x', fn () => 'other') . '+x'));
var_dump($c->fetch('b'), $other->fetch('x'));

// A stale value is served to a nested call of its own key, as to anyone.
$c->remember('s', fn () => 'old', 1, 60);
usleep(1100000);
var_dump($c->remember('s', fn () => 'new:' . $c->remember('s', fn () => 'never', 1, 60), 1, 60));
?>
--EXPECT--
Error: Resident\Cache::remember(): the $compute of key "k" asked for that key itself, and would wait for its own result
bool(true)
bool(false)
string(8) "computed"
string(5) "outer"
string(3) "b+a"
string(7) "other+x"
string(1) "b"
string(5) "other"
string(7) "new:old"
