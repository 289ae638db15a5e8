--TEST--
RequestOverStatic with opcache.validate_timestamps=0: a class file is trusted as OPcache trusts it (not stat()ed), opcache_invalidate() drops the snapshots of its file (changed or not), opcache_reset() drops them all; explicit cache entries stay
--EXTENSIONS--
pcntl
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.validate_timestamps=0
--FILE--
<?php
require __DIR__ . '/ros.inc';
$files = [];
foreach (['Alpha' => 'a', 'Beta' => 'b', 'Gamma' => 'g'] as $class => $v) {
    $files[$class] = class_file($class, "#[Resident\\RequestOverStatic] class $class { public static string \$v = '{$v}0'; }");
}
Resident\Cache::pool('app')->store('config', 'explicit');
$load = function () use ($files) {
    foreach ($files as $file) {
        require $file;
    }
};
$show = function (string $when) use ($load) {
    $load();
    printf("%s: %s %s %s, entry %s\n", $when, Alpha::$v, Beta::$v, Gamma::$v, var_export(Resident\Cache::pool('app')->fetch('config'), true));
};
request(function () use ($load) {
    $load();
    [Alpha::$v, Beta::$v, Gamma::$v] = ['a1', 'b1', 'g1'];
});
// A deploy that OPcache is not told of: it keeps running the code it has.
class_file('Alpha', "#[Resident\\RequestOverStatic] class Alpha { public static string \$v = 'a0'; } // deployed");
touch($files['Alpha'], time() + 60);
request(fn () => $show('Alpha changed, OPcache not told'));
request(function () use ($files) {
    echo 'opcache_invalidate(Alpha, Beta): ', var_export(opcache_invalidate($files['Alpha'], true), true), ' ',
        var_export(opcache_invalidate($files['Beta'], true), true), "\n";
});
request(fn () => $show('after opcache_invalidate()'));
request(function () use ($load) {
    $load();
    Alpha::$v = 'a2';
});
request(fn () => $show('published again'));
request(function () {
    echo 'opcache_reset(): ', var_export(opcache_reset(), true), "\n";
});
request(fn () => $show('after opcache_reset()'));
?>
--EXPECT--
Alpha changed, OPcache not told: a1 b1 g1, entry 'explicit'
opcache_invalidate(Alpha, Beta): true true
after opcache_invalidate(): a0 b0 g1, entry 'explicit'
published again: a2 b0 g1, entry 'explicit'
opcache_reset(): true
after opcache_reset(): a0 b0 g0, entry 'explicit'
