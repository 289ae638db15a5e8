--TEST--
PHP 8.3+, where a stored value may be nested as deep as the C stack allows: a refusal deep in a value near the end of the stack names its whole path (rendering it recursed once per level, and crashed); a lazily restored object's deep arrays are compared with their records within the stack (the comparison recursed without a check, and crashed): where the stack ends they are not known to be the same; a deep chain of objects fetched lazily is walked, and left to the end of the request
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip PHP 8.2 knows no C stack limit: 1,024 levels there');
}
if (getenv('SKIP_ASAN')) {
    die('skip under ASan a 256K Fiber stack holds too few levels to tell');
}
?>
--INI--
resident.enable_cli=1
resident.testing=1
resident.zero_copy=1
resident.lazy_objects=1
resident.shm_size=64M
user_cache.enable_cli=1
memory_limit=1G
zend.exception_ignore_args=1
--FILE--
<?php
use Resident\Testing;

function in_fiber(string $stack_size, callable $call): mixed
{
    ini_set('fiber.stack_size', $stack_size);
    $fiber = new Fiber($call);
    $fiber->start();
    return $fiber->getReturn();
}

function nested_array(int $levels, array $leaf = []): array
{
    $a = $leaf;
    for ($i = 0; $i < $levels; $i++) {
        $a = [$a];
    }
    return $a;
}

final class Holder
{
    public $data;
    public ?Holder $next = null;
}

function chain(int $levels): ?Holder
{
    $node = null;
    for ($i = 0; $i < $levels; $i++) {
        $next = new Holder();
        $next->data = $i;
        $next->next = $node;
        $node = $next;
    }
    return $node;
}

function dismantle(mixed &$value): void
{
    while (is_array($value) ? $value !== [] : $value instanceof Holder) {
        $value = is_array($value) ? reset($value) : ($value->next ?? $value->data);
    }
}

$c = Resident\Cache::pool('deep');
$u = UserCache\Cache::getPool('deep');

echo "-- a refusal at the bottom of the deepest array a 1M stack stores\n";
$lo = 1;
$hi = 100000;
while ($hi - $lo > 1) {
    $mid = intdiv($lo + $hi, 2);
    $value = nested_array($mid);
    $stored = in_fiber('1M', function () use ($c, $value): bool {
        try {
            return $c->store('probe', $value);
        } catch (ValueError) {
            return false;
        }
    });
    dismantle($value);
    [$lo, $hi] = $stored ? [$mid, $hi] : [$lo, $mid];
}
$value = nested_array($lo - 1, [STDIN]);
echo in_fiber('1M', function () use ($c, $value, $lo): string {
    try {
        $c->store('refused', $value);
        return 'stored';
    } catch (TypeError $e) {
        $m = $e->getMessage();
        $path = str_contains($m, '$value' . str_repeat('[0]', $lo) . ' is a resource') ? ', the whole path' : '';
        return get_class($e) . $path . ': ' . preg_replace('/(\[0\])+/', '[0]...[0]', $m);
    }
}), "\n";
dismantle($value);

echo "-- deep arrays of an object restored lazily, compared with its record\n";
// 10,000 levels, stored, and made, with a 32M stack.
$h = new Holder();
$h->data = nested_array(10000);
$o = new Holder();
$o->data = nested_array(10000, [new Holder()]);
echo 'stored: ', var_export(in_fiber('32M', fn () => $c->store('plain', $h) && $c->store('objects', $o)), true), "\n";
dismantle($h->data);
dismantle($o->data);

$plain = Testing::fetchLazily($c, 'plain');
$replaced = nested_array(10000);
$plain->data = $replaced;     // the same content, another array
echo 'plain, 256K stack: ', var_export(in_fiber('256K', fn () => Testing::lazyUnchanged()), true), "\n";
echo 'plain, main stack: ', var_export(Testing::lazyUnchanged(), true), "\n";
$plain->data[0] = 1;
echo 'plain, changed: ', var_export(Testing::lazyUnchanged(), true), "\n";
dismantle($replaced);

$objects = Testing::fetchLazily($c, 'objects');
in_fiber('32M', function () use ($objects): void {
    $objects->data;           // made now: arrays holding an object
});
echo 'objects, 256K stack: ', var_export(in_fiber('256K', fn () => Testing::lazyUnchanged()), true), "\n";
echo 'objects, main stack: ', var_export(Testing::lazyUnchanged(), true), "\n";

echo "-- 5,000 objects stored with a 32M stack, fetched (lazily without OPcache)\n";
$links = chain(5000);
echo 'stored: ', var_export(in_fiber('32M', fn () => $c->store('links', $links) && $u->store('links', $links)), true), "\n";
dismantle($links);
foreach (['Resident' => $c, 'UserCache' => $u] as $name => $cache) {
    $got = $cache->fetch('links');
    echo "$name: ";
    $n = 0;
    $sum = 0;
    for ($node = $got; $node !== null; $node = $node->next) {
        $n++;
        $sum += $node->data;
    }
    echo "$n objects, data summing to $sum\n";
}
$kept = $got;   // to the end of the request
echo "done\n";
?>
--EXPECT--
-- a refusal at the bottom of the deepest array a 1M stack stores
TypeError, the whole path: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value[0]...[0] is a resource
-- deep arrays of an object restored lazily, compared with its record
stored: true
plain, 256K stack: false
plain, main stack: true
plain, changed: false
objects, 256K stack: false
objects, main stack: true
-- 5,000 objects stored with a 32M stack, fetched (lazily without OPcache)
stored: true
Resident: 5000 objects, data summing to 12497500
UserCache: 5000 objects, data summing to 12497500
done
