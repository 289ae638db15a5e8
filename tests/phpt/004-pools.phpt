--TEST--
Pools are separate key spaces with their own statistics
--INI--
resident.enable_cli=1
--FILE--
<?php
$default = Resident\Cache::pool();
$app = Resident\Cache::pool('app');
$again = Resident\Cache::pool('app');
var_dump($default->name(), $app->name());
$default->store('k', 'default');
$app->store('k', 'app');
var_dump($default->fetch('k'), $app->fetch('k'), $again->fetch('k'));
$app->clear();
var_dump($default->fetch('k'), $app->fetch('k', 'gone'));
var_dump($app->info()['entries'], $default->info()['entries']);

$pinned = Resident\Cache::pool('routes', pinned: true);
var_dump($pinned->info()['pinned'], Resident\Cache::pool('routes')->info()['pinned']);
try {
    Resident\Cache::pool('app', pinned: true);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
foreach (['', str_repeat('p', 64), "a\0b", '(remember)', '(statics)', '()'] as $bad) {
    try {
        Resident\Cache::pool($bad);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    new Resident\Cache();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    serialize($app);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    clone $app;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
string(7) "default"
string(3) "app"
string(7) "default"
string(3) "app"
string(3) "app"
string(7) "default"
string(4) "gone"
int(0)
int(1)
bool(true)
bool(true)
ValueError: Resident\Cache::pool(): Argument #2 ($pinned) cannot pin pool "app": it already exists unpinned
Resident\Cache::pool(): Argument #1 ($name) must be between 1 and 63 bytes without control characters
Resident\Cache::pool(): Argument #1 ($name) must be between 1 and 63 bytes without control characters
Resident\Cache::pool(): Argument #1 ($name) must be between 1 and 63 bytes without control characters
Resident\Cache::pool(): Argument #1 ($name) must not be enclosed in parentheses, which name Resident's own pools
Resident\Cache::pool(): Argument #1 ($name) must not be enclosed in parentheses, which name Resident's own pools
Resident\Cache::pool(): Argument #1 ($name) must not be enclosed in parentheses, which name Resident's own pools
Call to private Resident\Cache::__construct() from global scope
Serialization of 'Resident\Cache' is not allowed
Trying to clone an uncloneable object of class Resident\Cache
