--TEST--
A kept closure whose code may have changed is a miss, never a call into other code, and its entry goes: the declaring file changed (OPcache stat()s files), opcache_invalidate() of it, opcache_reset(), another process with an OPcache of its own (a named segment: a miss there, the entry kept for the processes of the OPcache that made it); stored again from the new code, it works
--EXTENSIONS--
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
opcache.validate_timestamps=1
opcache.revalidate_freq=0
--FILE--
<?php
require __DIR__ . '/child.inc';
$decl = __DIR__ . '/142-closures-declaring.inc';
file_put_contents($decl, '<?php return ["f" => function (string $x) { return "one $x"; }];');
$c = Resident\Cache::pool('changed');
$keep = function () use ($c, $decl) {
    $c->store('f', require $decl);
    echo "kept: ", $c->fetch('f')['f']('call'), "\n";
};
$miss = function (string $what) use ($c) {
    echo "$what: ", var_export($c->fetch('f'), true), ", entry still there: ", var_export($c->exists('f'), true), "\n";
};

$keep();
file_put_contents($decl, '<?php return ["f" => function (string $x) { return "version two $x"; }];');
touch($decl, time() + 10);   // OPcache compares mtimes: the edit must not fall in the same second
$miss('the file changed');
$keep();
var_dump(opcache_invalidate($decl, true));
$miss('opcache_invalidate()');
$keep();
var_dump(opcache_reset());
$miss('opcache_reset()');

echo "-- another process, with an OPcache of its own, on a named segment\n";
$name = 'phpt-closures-' . getmypid();
$ini = ['resident.segment' => $name, 'opcache.enable_cli' => 1, 'opcache.file_update_protection' => 0];
if (PHP_VERSION_ID < 80500) {
    $ini['zend_extension'] = 'opcache';   // PHP 8.5 builds OPcache in (RFC "Make OPcache a non-optional part of PHP")
}
echo resident_child('$c = Resident\Cache::pool("p"); var_dump($c->store("f", require ' . var_export($decl, true) . '), $c->fetch("f")["f"]("there"));', $ini);
echo resident_child('$c = Resident\Cache::pool("p"); var_dump($c->exists("f"), $c->fetch("f"), $c->exists("f"));', $ini);
echo "-- the entry stays: it is good where it was made\n";
unlink("/dev/shm/resident-$name");
unlink($decl);
?>
--EXPECT--
kept: one call
the file changed: NULL, entry still there: false
kept: version two call
bool(true)
opcache_invalidate(): NULL, entry still there: false
kept: version two call
bool(true)
opcache_reset(): NULL, entry still there: false
-- another process, with an OPcache of its own, on a named segment
bool(true)
string(17) "version two there"
bool(true)
NULL
bool(true)
-- the entry stays: it is good where it was made
