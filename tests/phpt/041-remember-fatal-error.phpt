--TEST--
remember(): a fatal error inside $compute (max_execution_time, memory_limit, a compile error) releases the single-flight lock, so the next caller in the same process (php-fpm's next request, here a shutdown function) computes at once instead of waiting out the lease
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('remember-fatal');
register_shutdown_function(function () use ($c) {
    $t = microtime(true);
    $v = $c->remember('k', fn () => 'computed again');
    printf("%s, %s\n", $v, microtime(true) - $t < 1 ? 'at once' : sprintf('after %.1f s', microtime(true) - $t));
    var_dump($c->fetch('k'));
});
$c->remember('k', function () {
    // A fatal error on every PHP version (E_USER_ERROR is deprecated in 8.4).
    eval('final class Twice {} final class Twice {}');
});
echo "not reached\n";
?>
--EXPECTF--
Fatal error: %s Twice%s in %s : eval()'d code on line %d
computed again, at once
string(14) "computed again"
