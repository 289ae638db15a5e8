--TEST--
UserCache: where the C stack ends first (a Fiber's small stack, PHP 8.3+), a deep value is refused by store() as one nested too deeply, and a fetch of one stored elsewhere is a miss (the default) that keeps its entry, as in the proposal; Resident\Cache gives the engine's Error there, as serialize() does
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip PHP 8.2 has no C stack limit (serialize() crashes there as well)');
}
if (getenv('SKIP_ASAN')) {
    // ASan's larger frames and reserved stack leave a 128K Fiber no room at all.
    die('skip under ASan the small Fiber stack is used up before any cache call');
}
?>
--INI--
user_cache.enable_cli=1
--FILE--
<?php
function chain(int $levels): stdClass
{
    $node = null;
    for ($i = 0; $i < $levels; $i++) {
        $next = new stdClass();
        $next->next = $node;
        $node = $next;
    }
    return $node;
}
function levels(mixed $node): int
{
    for ($n = 0; $node instanceof stdClass; $n++) {
        $node = $node->next;
    }
    return $n;
}
/* A small stack for the cache calls only: values are made and destroyed
 * outside it (the engine's destructor recursion needs its own stack). */
function in_small_fiber(callable $call): mixed
{
    ini_set('fiber.stack_size', '128K');
    $fiber = new Fiber($call);
    $fiber->start();
    return $fiber->getReturn();
}

$c = UserCache\Cache::getPool('stack');
$c->store('small', ['a' => 1]);
$deep = chain(1000);

echo in_small_fiber(function () use ($c, $deep) {
    try {
        return var_export($c->store('refused', $deep), true);
    } catch (TypeError $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}), "\n";
var_dump($c->has('refused'));

var_dump($c->store('deep', $deep), levels($c->fetch('deep')));
$r = in_small_fiber(fn () => [
    'fetch' => $c->fetch('deep', 'DEFAULT'),
    'after' => $c->fetch('small'),
    'multiple' => $c->fetchMultiple(['small', 'deep', 'missing'], 'DEFAULT'),
    'has' => $c->has('deep'),
]);
var_dump($r, error_get_last(), $c->has('deep'), levels($c->fetch('deep')));

$resident = Resident\Cache::pool('stack');
$resident->store('deep', $deep);
echo in_small_fiber(function () use ($resident) {
    try {
        return var_export($resident->fetch('deep'), true);
    } catch (Error $e) {
        return get_class($e) . ': ' . (str_starts_with($e->getMessage(), 'Maximum call stack size of ') ? 'the engine\'s stack limit' : $e->getMessage());
    }
}), "\n";
var_dump(levels($resident->fetch('deep')));
?>
--EXPECT--
TypeError: Value is nested too deeply to be stored in the user cache
bool(false)
bool(true)
int(1000)
array(4) {
  ["fetch"]=>
  string(7) "DEFAULT"
  ["after"]=>
  array(1) {
    ["a"]=>
    int(1)
  }
  ["multiple"]=>
  array(3) {
    ["small"]=>
    array(1) {
      ["a"]=>
      int(1)
    }
    ["deep"]=>
    string(7) "DEFAULT"
    ["missing"]=>
    string(7) "DEFAULT"
  }
  ["has"]=>
  bool(true)
}
NULL
bool(true)
int(1000)
Error: the engine's stack limit
int(1000)
