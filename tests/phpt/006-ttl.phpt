--TEST--
TTL: entries expire, add() treats an expired entry as absent, bad TTLs throw
--INI--
resident.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool();
$c->store('short', 'v', 1);
$c->store('long', 'v', 3600);
$c->store('forever', 'v');
var_dump($c->fetch('short'), $c->exists('short'));
usleep(1100000);
var_dump($c->fetch('short', 'expired'), $c->exists('short'), $c->fetch('long'), $c->fetch('forever'));
var_dump($c->add('short', 'again'), $c->fetch('short'));
try {
    $c->store('k', 1, -1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    $c->storeMultiple(['k' => 1], -5);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    $c->store('k', 1, PHP_INT_MAX);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->exists('k'));
?>
--EXPECT--
string(1) "v"
bool(true)
string(7) "expired"
bool(false)
string(1) "v"
string(1) "v"
bool(true)
string(5) "again"
Resident\Cache::store(): Argument #3 ($ttl) must be greater than or equal to 0
Resident\Cache::storeMultiple(): Argument #2 ($ttl) must be greater than or equal to 0
Resident\Cache::store(): Argument #3 ($ttl) is too large
bool(false)
