--TEST--
PHP 8.3+, resident.check_borrowed: a borrowed array nested 20,000 levels deep (stored with a 32M stack) still referenced at endOfRequest() is copied where the stack allows it; where endOfRequest() is called with almost no C stack left, the copy stops and the array is reported as stuck (nothing released) instead of crashing, and it stays readable
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip PHP 8.2 knows no C stack limit: 1,024 levels there');
}
if (getenv('SKIP_ASAN')) {
    die('skip under ASan the stack sizes differ');
}
?>
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.check_borrowed=1
resident.shm_size=64M
memory_limit=1G
zend.exception_ignore_args=1
--FILE--
<?php
use Resident\Cache;

function in_fiber(string $stack_size, callable $call): mixed
{
    ini_set('fiber.stack_size', $stack_size);
    $fiber = new Fiber($call);
    $fiber->start();
    return $fiber->getReturn();
}

function nested_array(int $levels): array
{
    $a = [];
    for ($i = 0; $i < $levels; $i++) {
        $a = [$a];
    }
    return $a;
}

function depth_of(array $value): int
{
    for ($n = 0; $value !== []; $n++) {
        $value = reset($value);
    }
    return $n;
}

function dismantle(mixed &$value): void
{
    while (is_array($value) && $value !== []) {
        $value = reset($value);
    }
}

// Calls $f under $levels calls that each take C stack (an internal
// function calling back into PHP).
$reached = 0;
function down(int $levels, callable $f): mixed
{
    global $reached;
    $reached++;
    return $levels === 0 ? $f() : array_map(fn () => down($levels - 1, $f), [0])[0];
}

$c = Cache::pool('borrowed');
$value = nested_array(20000);
echo 'stored: ', var_export(in_fiber('32M', fn () => $c->store('deep', $value)), true), "\n";
dismantle($value);

echo "-- endOfRequest() with almost no C stack left\n";
try {
    down(PHP_INT_MAX, fn () => null);
} catch (Error $e) {
    echo get_class($e), ': ', str_starts_with($e->getMessage(), 'Maximum call stack size of ') ? "the engine's stack limit" : $e->getMessage(), "\n";
}
unset($e);
$deepest = $reached;
$borrowed = $c->fetch('deep');
var_dump(down($deepest - 3, fn () => Cache::endOfRequest()));
echo 'still readable: ', depth_of($borrowed), " levels\n";

echo "-- endOfRequest() from the main script\n";
var_dump(Cache::endOfRequest());
echo 'a copy now: ', depth_of($borrowed), " levels\n";
dismantle($borrowed);
?>
--EXPECTF--
stored: true
-- endOfRequest() with almost no C stack left
Error: the engine's stack limit

Warning: Resident\Cache::endOfRequest(): 3 values fetched before endOfRequest() are still referenced where no copy can replace them (the first: $borrowed in the main script); nothing was released. Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(false)
still readable: 20000 levels
-- endOfRequest() from the main script

Warning: Resident\Cache::endOfRequest(): 1 value fetched before endOfRequest() was still referenced (the first: $borrowed in the main script) and was copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it in %s on line %d
bool(true)
a copy now: 20000 levels
