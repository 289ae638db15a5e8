<?php
declare(strict_types=1);
// Bad input: every public method of Resident\Cache called with wrong types
// (each typed parameter in turn), huge keys, keys with NUL bytes, empty keys,
// negative and overflowing TTLs, values nested 10,000 deep (arrays, objects,
// references, inside storeMultiple and remember), unstorable values, bad pool
// names, bad counters, bad dump files. Each must give a clear exception (or,
// where documented, false with a warning), never a crash, and leave the
// cache exactly as it was: same keys, same values, same entries and bytes.
//
//   php -n -d extension=resident.so -d resident.enable_cli=1 bad_input.php
// Prints its figures and "bad input: N passed, N failed".

$cache = Resident\Cache::pool('bad');
$other = Resident\Cache::pool();
$cache->store('a', ['x' => 1, 'list' => range(1, 10)]);
$cache->store('b', 'string value');
$cache->store('n', 41);
$cache->store('neg', -5);
$cache->store("k\xffbinary", 1.5);
$other->store('d', [new ArrayObject([1, 2]), new DateTimeImmutable('@0')]);

function snapshot(): string
{
    $out = [];
    foreach (['bad', 'default'] as $pool) {
        $p = Resident\Cache::pool($pool);
        $keys = iterator_to_array($p->keys(), false);
        sort($keys);
        foreach ($keys as $k) {
            $out[$pool][$k] = serialize($p->fetch($k));
        }
    }
    $s = Resident\Cache::status();
    // The bytes every pool holds (remember()'s lock pool too: a lock left
    // behind would make the next caller wait), not memory_used: a borrowing
    // process keeps what was replaced in limbo until its request ends. Not
    // the number of pools either: the lock pool is made on first use.
    $pools = Resident\Cache::inspect(1, 1)['pools'];
    return serialize([$out, $s['entries'], array_sum(array_column($pools, 'memory')), array_sum(array_column($pools, 'entries'))]);
}

function deep_array(int $n): array
{
    $v = [];
    for ($i = 0; $i < $n; $i++) {
        $v = [$v];
    }
    return $v;
}

function deep_object(int $n): object
{
    $o = new stdClass;
    for ($i = 0; $i < $n; $i++) {
        $p = new stdClass;
        $p->child = $o;
        $o = $p;
    }
    return $o;
}

function deep_refs(int $n): array
{
    $root = [];
    $cur = &$root;
    for ($i = 0; $i < $n; $i++) {
        $cur['r'] = [];
        $cur = &$cur['r'];
    }
    unset($cur);
    $root['alias'] = &$root['r'];
    return $root;
}

function deep_mixed(int $n): array
{
    $v = 'leaf';
    for ($i = 0; $i < $n; $i++) {
        if ($i % 2) {
            $o = new ArrayObject([$v]);
            $v = $o;
        } else {
            $v = ['k' => $v];
        }
    }
    return [$v];
}

$huge = str_repeat('k', 4097);
$huger = str_repeat('k', 1 << 20);
$nul = "a\0b";
$deep = deep_array(10000);
$deepObj = deep_object(10000);
$deepRefs = deep_refs(10000);
$deepMixed = deep_mixed(10000);
$closure = fn() => 1;
$resource = fopen('php://memory', 'r');
$gen = (function () { yield 1; })();
$anon = new class {};

// Wrong types for every typed parameter of every public method, in strict
// mode: a TypeError naming the method.
$wrongFor = [
    'string' => [[], new stdClass, 1, 1.5, true, null],
    '?string' => [[], new stdClass, 1, 1.5, true],
    'int' => ['1', 'abc', [], new stdClass, 1.5, null, true],
    'bool' => ['yes', 1, [], null],
    'array' => ['a', 1, new stdClass, null],
    'callable' => ['no_such_function', [1, 2], 1, null, 'Resident\Cache::nope'],
];
$cases = [];
$class = new ReflectionClass(Resident\Cache::class);
$methods = [];
foreach ($class->getMethods(ReflectionMethod::IS_PUBLIC) as $m) {
    $methods[] = $m->name;
    $params = $m->getParameters();
    // Valid arguments to start from.
    $valid = [];
    foreach ($params as $p) {
        $valid[] = match ((string)$p->getType()) {
            'string' => $m->name === 'pool' ? 'bad' : ($m->name === 'dump' || $m->name === 'restore' ? '/nonexistent-dir/x' : 'a'),
            '?string' => null,
            'int' => 0,
            'bool' => false,
            'array' => [],
            'callable' => fn() => 1,
            default => 1,
        };
    }
    foreach ($params as $i => $p) {
        foreach ($wrongFor[(string)$p->getType()] ?? [] as $bad) {
            $args = $valid;
            $args[$i] = $bad;
            $cases[] = ["{$m->name}(\${$p->name}: " . get_debug_type($bad) . ')', $m->isStatic() ? [Resident\Cache::class, $m->name] : [$cache, $m->name], $args, 'TypeError'];
        }
    }
    // Too many and too few arguments.
    $required = $m->getNumberOfRequiredParameters();
    if ($required > 0) {
        $cases[] = ["{$m->name}() with too few arguments", $m->isStatic() ? [Resident\Cache::class, $m->name] : [$cache, $m->name], array_slice($valid, 0, $required - 1), 'ArgumentCountError'];
    }
}

$c = $cache;
$keyed = [
    'store' => fn($k) => $c->store($k, 1),
    'add' => fn($k) => $c->add($k, 1),
    'fetch' => fn($k) => $c->fetch($k),
    'exists' => fn($k) => $c->exists($k),
    'delete' => fn($k) => $c->delete($k),
    'increment' => fn($k) => $c->increment($k),
    'decrement' => fn($k) => $c->decrement($k),
    'cas' => fn($k) => $c->cas($k, 1, 2),
    'remember' => fn($k) => $c->remember($k, fn() => 1),
    'storeMultiple' => fn($k) => $c->storeMultiple(['ok' => 1, $k => 2]),
    'fetchMultiple' => fn($k) => $c->fetchMultiple(['a', $k]),
    'deleteMultiple' => fn($k) => $c->deleteMultiple(['a', $k]),
];
foreach ($keyed as $name => $call) {
    foreach (['empty' => '', 'over 4096 bytes' => $huge, '1 MiB' => $huger, 'with a NUL byte' => $nul, 'NUL only' => "\0"] as $what => $k) {
        $cases[] = ["$name(key $what)", $call, [$k], 'ValueError'];
    }
}
// The same through the compatibility layers.
$cases[] = ['OPcache\cache_store(key over 4096 bytes)', 'OPcache\cache_store', [$huge, 1], 'ValueError'];
$cases[] = ['OPcache\cache_fetch(key with a NUL byte)', 'OPcache\cache_fetch', [$nul], 'ValueError'];
$cases[] = ['OPcache\cache_store(10,000 levels)', 'OPcache\cache_store', ['k', $deep], 'ValueError'];
// The proposal's keys may hold NUL bytes; its delimiter 0x1F is refused.
$cases[] = ['UserCache\Cache::store(key with the delimiter 0x1F)', [UserCache\Cache::getPool('bad'), 'store'], ["a\x1fb", 1], 'ValueError'];
$cases[] = ['UserCache\Cache::fetch(key over 4096 bytes)', [UserCache\Cache::getPool('bad'), 'fetch'], [$huge], 'ValueError'];
$cases[] = ['UserCache\Cache::storeMultiple(a closure)', [UserCache\Cache::getPool('bad'), 'storeMultiple'], [['ok' => 1, 'bad' => $closure]], 'TypeError'];

// Keys of the wrong type inside arrays.
foreach (['fetchMultiple', 'deleteMultiple'] as $m) {
    foreach (['an array' => [[1]], 'an object' => [new stdClass], 'null' => [null], 'a float' => [1.5], 'a bool' => [true]] as $what => $keys) {
        $cases[] = ["$m(a key that is $what)", [$cache, $m], [array_merge(['a'], $keys)], 'TypeError'];
    }
}

// TTLs.
$ttlCalls = [
    'store' => fn($t) => $c->store('t', 1, $t),
    'add' => fn($t) => $c->add('t', 1, $t),
    'storeMultiple' => fn($t) => $c->storeMultiple(['t' => 1], $t),
    'increment' => fn($t) => $c->increment('t', 1, $t),
    'decrement' => fn($t) => $c->decrement('t', 1, $t),
    'remember' => fn($t) => $c->remember('t', fn() => 1, $t),
    'remember (staleTtl)' => fn($t) => $c->remember('t', fn() => 1, 10, $t),
];
foreach ($ttlCalls as $name => $call) {
    foreach ([-1, -86400, PHP_INT_MIN, PHP_INT_MAX, PHP_INT_MAX >> 8] as $t) {
        $cases[] = ["$name(ttl $t)", $call, [$t], 'ValueError'];
    }
}

// Values: nested 10,000 deep, unstorable.
$valueCalls = [
    'store' => fn($v) => $c->store('v', $v),
    'add' => fn($v) => $c->add('v', $v),
    'storeMultiple' => fn($v) => $c->storeMultiple(['ok' => 1, 'v' => $v]),
    'remember' => fn($v) => $c->remember('v', fn() => $v),
];
foreach ($valueCalls as $name => $call) {
    foreach (['10,000 nested arrays' => [$deep, 'ValueError'], '10,000 nested objects' => [$deepObj, 'ValueError'],
              '10,000 nested references' => [$deepRefs, 'ValueError'], '10,000 levels of arrays and ArrayObjects' => [$deepMixed, 'ValueError'],
              'a closure' => [$closure, 'TypeError'], 'a resource' => [$resource, 'TypeError'], 'a generator' => [$gen, 'TypeError'],
              'an anonymous object' => [$anon, 'TypeError'], 'a closure deep inside' => [['a' => [1, [2, ['f' => $closure]]]], 'TypeError'],
              'a Fiber' => [new Fiber(fn() => 1), 'TypeError'], 'a WeakMap' => [new WeakMap, 'TypeError'],
              'a Reflection object' => [new ReflectionClass('stdClass'), 'TypeError']] as $what => [$v, $expect]) {
        $cases[] = ["$name($what)", $call, [$v], $expect];
    }
}

// Pools.
foreach (['empty' => '', 'over 63 bytes' => str_repeat('p', 64), 'with a control character' => "p\x01", 'with a NUL byte' => "p\0q"] as $what => $name) {
    $cases[] = ["pool(name $what)", [Resident\Cache::class, 'pool'], [$name], 'ValueError'];
}
// Counters on values that are not integers, and past the limits.
$cases[] = ['increment(an array entry)', fn() => $c->increment('a'), [], 'TypeError'];
$cases[] = ['decrement(a string entry)', fn() => $c->decrement('b'), [], 'TypeError'];
$cases[] = ['cas(a float entry)', fn() => $c->cas("k\xffbinary", 1, 2), [], 'TypeError'];
$cases[] = ['increment(past PHP_INT_MAX)', fn() => $c->increment('n', PHP_INT_MAX), [], 'ArithmeticError'];
$cases[] = ['decrement(past PHP_INT_MIN)', fn() => $c->decrement('n', PHP_INT_MIN), [], 'ArithmeticError'];
$cases[] = ['increment(a negative step past PHP_INT_MIN)', fn() => $c->increment('neg', PHP_INT_MIN), [], 'ArithmeticError'];
// remember(): a computation that throws, or returns something unstorable.
$cases[] = ['remember(compute throws)', fn() => $c->remember('r', function () { throw new RuntimeException('compute failed'); }), [], 'RuntimeException'];
$cases[] = ['remember(compute returns a closure)', fn() => $c->remember('r', fn() => fn() => 1), [], 'TypeError'];
$cases[] = ['remember(compute returns 10,000 levels)', fn() => $c->remember('r', fn() => $deep), [], 'ValueError'];
// inspect() with nonsense sizes.
foreach ([[-1, 256], [20, -5], [20, 0], [PHP_INT_MAX, 256], [20, PHP_INT_MAX]] as [$top, $cells]) {
    $cases[] = ["inspect($top, $cells)", [Resident\Cache::class, 'inspect'], [$top, $cells], 'ValueError'];
}
// dump()/restore(): bad paths and bad files: false with a warning (documented), or an exception.
$garbage = tempnam(sys_get_temp_dir(), 'resident-bad');
file_put_contents($garbage, random_bytes(4096));
$empty = tempnam(sys_get_temp_dir(), 'resident-bad');
$cases[] = ['dump(a path with a NUL byte)', [Resident\Cache::class, 'dump'], ["/tmp/x\0y"], 'ValueError'];
$cases[] = ['dump(a directory that does not exist)', [Resident\Cache::class, 'dump'], ['/nonexistent-dir/x'], 'false'];
$cases[] = ['restore(a path with a NUL byte)', [Resident\Cache::class, 'restore'], ["/tmp/x\0y"], 'ValueError'];
$cases[] = ['restore(a missing file)', [Resident\Cache::class, 'restore'], ['/nonexistent-dir/x'], 'false'];
$cases[] = ['restore(random bytes)', [Resident\Cache::class, 'restore'], [$garbage], 'false'];
$cases[] = ['restore(an empty file)', [Resident\Cache::class, 'restore'], [$empty], 'false'];
$cases[] = ['restore(a directory)', [Resident\Cache::class, 'restore'], ['/tmp'], 'false'];

$passed = 0;
$failed = [];
$byClass = [];
$covered = [];
$before = snapshot();
foreach ($cases as [$name, $callable, $args, $expect]) {
    if (preg_match('/^(\w+)\(/', $name, $m)) {
        $covered[$m[1]] = true;
    }
    $warnings = [];
    set_error_handler(function (int $no, string $msg) use (&$warnings) {
        $warnings[] = $msg;
        return true;
    });
    $got = null;
    $result = null;
    try {
        $result = $callable(...$args);
        $got = $result === false ? 'false' : 'returned ' . get_debug_type($result);
    } catch (Throwable $e) {
        $got = $e;
    }
    restore_error_handler();
    $why = null;
    if ($expect === 'false') {
        if ($got instanceof Throwable) {
            if (!$got instanceof ValueError && !$got instanceof TypeError) {
                $why = 'threw ' . get_class($got) . ': ' . $got->getMessage();
            }
        } elseif ($got !== 'false' || !$warnings) {
            $why = "$got, " . count($warnings) . ' warnings (expected false with a warning)';
        }
    } elseif (!$got instanceof Throwable) {
        $why = "no exception: $got";
    } elseif (!$got instanceof $expect) {
        $why = 'threw ' . get_class($got) . ' instead of ' . $expect . ': ' . $got->getMessage();
    } elseif ($got->getMessage() === '' || strlen($got->getMessage()) > 2000) {
        $why = 'unclear message: ' . substr($got->getMessage(), 0, 200);
    }
    $after = snapshot();
    if ($after !== $before) {
        $why = ($why ? "$why; " : '') . 'the cache changed';
        if (getenv('BAD_INPUT_DEBUG')) {
            var_dump(unserialize($before), unserialize($after));
        }
        $before = $after;
    }
    if ($why === null) {
        $passed++;
        $byClass[$got instanceof Throwable ? get_class($got) : 'false + warning'] = ($byClass[$got instanceof Throwable ? get_class($got) : 'false + warning'] ?? 0) + 1;
    } else {
        $failed[] = "$name: $why";
    }
}
unlink($garbage);
unlink($empty);

// Every public method was called with bad input.
$missing = array_diff($methods, array_keys($covered), ['name', 'clear', 'info', 'status', 'metrics', 'keys', 'endOfRequest']);
// name(), clear(), info(), status(), metrics(), endOfRequest() take no arguments: called with one too many.
foreach (['name', 'clear', 'info', 'keys'] as $m) {
    try {
        $cache->$m(...($m === 'keys' ? [[]] : [1]));
        $failed[] = "$m() with a bad argument: no exception";
    } catch (TypeError|ArgumentCountError) {
        $passed++;
    }
}
foreach (['status', 'metrics', 'endOfRequest'] as $m) {
    try {
        Resident\Cache::$m(1);
        $failed[] = "$m(1): no exception";
    } catch (ArgumentCountError) {
        $passed++;
    }
}
foreach ($missing as $m) {
    $failed[] = "$m(): not covered";
}
if (snapshot() !== $before) {
    $failed[] = 'the cache changed';
}
// Still fully working afterwards.
if ($cache->fetch('a') !== ['x' => 1, 'list' => range(1, 10)] || !$cache->store('after', [1]) || $cache->fetch('after') !== [1]) {
    $failed[] = 'the cache does not work any more';
}

foreach ($failed as $f) {
    echo "FAIL $f\n";
}
ksort($byClass);
printf("bad input: %d calls on %d public methods (+ compatibility functions): %s; cache unchanged after each\n",
    count($cases) + 6, count($methods), implode(', ', array_map(fn($k, $n) => "$n $k", array_keys($byClass), $byClass)));
printf("bad input: %d passed, %d failed\n", $passed, count($failed));
exit($failed ? 1 : 0);
