--TEST--
Closures that cannot be kept are refused with a TypeError naming the path and the reason: eval()'d code, a file OPcache does not cache (blacklisted), use (&$x), a Generator, a Fiber or a resource held by the closure, more static and use variables than a record holds (64)
--EXTENSIONS--
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
opcache.blacklist_filename={PWD}/closures-blacklist.txt
--FILE--
<?php
$c = Resident\Cache::pool('refused');
function attempt(string $what, Closure $store): void
{
    try {
        $store();
        echo "$what: stored\n";
    } catch (TypeError $e) {
        echo "$what: ", $e->getMessage(), "\n";
    }
}
function gen() { yield 1; }

$x = 1;
$file = __DIR__ . '/141-closures-uncached.inc';
file_put_contents($file, '<?php return ["f" => fn () => 1];');
$uncached = require $file;

attempt('eval', fn () => $c->store('k', ['f' => eval('return fn () => 1;')]));
attempt('not cached by OPcache', fn () => $c->store('k', $uncached));
attempt('by reference', fn () => $c->store('k', [function () use (&$x) { return $x; }]));
attempt('by value', fn () => $c->store('ok', [function () use ($x) { return $x; }]));
$g = gen();
attempt('a Generator captured', fn () => $c->store('k', function () use ($g) { return $g; }));
$fiber = new Fiber(fn () => 1);
attempt('a Fiber captured', fn () => $c->store('k', function () use ($fiber) { return $fiber; }));
$r = STDIN;
attempt('a resource used', fn () => $c->store('k', fn () => $r));
$vars = implode(', ', array_map(fn ($i) => "\$v$i", range(1, 65)));
$file = __DIR__ . '/141-closures-many.inc';
file_put_contents($file, "<?php return function () use ($vars) { return 1; };");
$v1 = 1;
$many = (function () use ($file) { extract(array_fill_keys(array_map(fn ($i) => "v$i", range(1, 65)), 0)); return require $file; })();
attempt('65 use variables', fn () => $c->store('k', $many));
echo "'k' was stored: ", var_export($c->exists('k'), true), "\n";
unlink(__DIR__ . '/141-closures-uncached.inc');
unlink(__DIR__ . '/141-closures-many.inc');
?>
--EXPECTF--
eval: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value['f'] is a Closure declared in eval()'d code
not cached by OPcache: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value['f'] is a Closure declared in %s141-closures-uncached.inc, which OPcache does not cache
by reference: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value[0] is a Closure that captures $x by reference
by value: stored
a Generator captured: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->{the Closure's $g} is a Generator
a Fiber captured: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->{the Closure's $fiber} is an instance of Fiber
a resource used: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->{the Closure's $r} is a resource
65 use variables: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is a Closure with more than 64 static and use variables
'k' was stored: false
