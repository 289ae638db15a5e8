--TEST--
UserCache: invalid keys, pool names, TTLs, steps and leases throw the proposal's ValueErrors (0x1F is its key delimiter); a pool and its key fit in Resident's 4,096-byte keys
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('p');
function show(string $label, Closure $f): void
{
    try {
        $f();
        echo $label, ": no error\n";
    } catch (Throwable $e) {
        echo $label, ': ', get_class($e), ': ', $e->getMessage(), "\n";
    }
}
show('store empty', fn () => $c->store('', 1));
show('fetch delimiter', fn () => $c->fetch("bad\x1fkey"));
show('has empty', fn () => $c->has(''));
show('add empty', fn () => $c->add('', 1));
show('delete delimiter', fn () => $c->delete("\x1f"));
show('increment empty', fn () => $c->increment(''));
show('lock delimiter', fn () => $c->lock("bad\x1fkey"));
show('unlock empty', fn () => $c->unlock(''));
show('remember empty', fn () => $c->remember('', fn () => 1));
show('fetchMultiple empty', fn () => $c->fetchMultiple(['ok', '']));
show('fetchMultiple float', fn () => $c->fetchMultiple(['ok', 1.5]));
show('deleteMultiple object', fn () => $c->deleteMultiple(['ok', new stdClass()]));
show('storeMultiple empty key', fn () => $c->storeMultiple(['' => 1]));
show('storeMultiple delimiter key', fn () => $c->storeMultiple(["bad\x1fkey" => 1]));
foreach (['getPool', 'hasPool', 'deletePool'] as $m) {
    show("$m empty", fn () => Cache::$m(''));
    show("$m delimiter", fn () => Cache::$m("bad\x1fpool"));
}
foreach (['store' => fn () => $c->store('k', 1, -1), 'add' => fn () => $c->add('k', 1, -1),
    'storeMultiple' => fn () => $c->storeMultiple(['k' => 1], -1), 'increment' => fn () => $c->increment('k', 1, -1),
    'decrement' => fn () => $c->decrement('k', 1, -1), 'remember' => fn () => $c->remember('k', fn () => 1, -1),
    'increment step' => fn () => $c->increment('k', -1), 'decrement step' => fn () => $c->decrement('k', -1),
    'lock' => fn () => $c->lock('k', -1)] as $label => $f) {
    show($label, $f);
}
var_dump($c->has('k'));

echo "lengths:\n";
var_dump($c->store(str_repeat('k', 4093), 'longest'), $c->fetch(str_repeat('k', 4093)));
show('key too long', fn () => $c->store(str_repeat('k', 4094), 1));
show('fetchMultiple key too long', fn () => $c->fetchMultiple([str_repeat('k', 4094)]));
show('storeMultiple key too long', fn () => $c->storeMultiple([str_repeat('k', 4094) => 1]));
$long = Cache::getPool(str_repeat('p', 4074));
var_dump($long->store('1234567890123456789', 'an integer key fits'), $long->storeMultiple([PHP_INT_MIN => 'so does this one']));
var_dump($long->fetch((string)PHP_INT_MIN));
show('pool name too long', fn () => Cache::getPool(str_repeat('p', 4075)));
?>
--EXPECT--
store empty: ValueError: UserCache\Cache::store(): Argument #1 ($key) must be a non-empty string
fetch delimiter: ValueError: UserCache\Cache::fetch(): Argument #1 ($key) must not contain the user-cache key delimiter 0x1F
has empty: ValueError: UserCache\Cache::has(): Argument #1 ($key) must be a non-empty string
add empty: ValueError: UserCache\Cache::add(): Argument #1 ($key) must be a non-empty string
delete delimiter: ValueError: UserCache\Cache::delete(): Argument #1 ($key) must not contain the user-cache key delimiter 0x1F
increment empty: ValueError: UserCache\Cache::increment(): Argument #1 ($key) must be a non-empty string
lock delimiter: ValueError: UserCache\Cache::lock(): Argument #1 ($key) must not contain the user-cache key delimiter 0x1F
unlock empty: ValueError: UserCache\Cache::unlock(): Argument #1 ($key) must be a non-empty string
remember empty: ValueError: UserCache\Cache::remember(): Argument #1 ($key) must be a non-empty string
fetchMultiple empty: ValueError: UserCache\Cache::fetchMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that do not contain 0x1F
fetchMultiple float: ValueError: UserCache\Cache::fetchMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that do not contain 0x1F
deleteMultiple object: ValueError: UserCache\Cache::deleteMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that do not contain 0x1F
storeMultiple empty key: ValueError: UserCache\Cache::storeMultiple(): Argument #1 ($values) must be an array with non-empty string or int keys that do not contain 0x1F
storeMultiple delimiter key: ValueError: UserCache\Cache::storeMultiple(): Argument #1 ($values) must be an array with non-empty string or int keys that do not contain 0x1F
getPool empty: ValueError: UserCache\Cache::getPool(): Argument #1 ($pool) must not be empty
getPool delimiter: ValueError: UserCache\Cache::getPool(): Argument #1 ($pool) must not contain the user-cache key delimiter 0x1F
hasPool empty: ValueError: UserCache\Cache::hasPool(): Argument #1 ($pool) must not be empty
hasPool delimiter: ValueError: UserCache\Cache::hasPool(): Argument #1 ($pool) must not contain the user-cache key delimiter 0x1F
deletePool empty: ValueError: UserCache\Cache::deletePool(): Argument #1 ($pool) must not be empty
deletePool delimiter: ValueError: UserCache\Cache::deletePool(): Argument #1 ($pool) must not contain the user-cache key delimiter 0x1F
store: ValueError: UserCache\Cache::store(): Argument #3 ($ttl) must be greater than or equal to 0
add: ValueError: UserCache\Cache::add(): Argument #3 ($ttl) must be greater than or equal to 0
storeMultiple: ValueError: UserCache\Cache::storeMultiple(): Argument #2 ($ttl) must be greater than or equal to 0
increment: ValueError: UserCache\Cache::increment(): Argument #3 ($ttl) must be greater than or equal to 0
decrement: ValueError: UserCache\Cache::decrement(): Argument #3 ($ttl) must be greater than or equal to 0
remember: ValueError: UserCache\Cache::remember(): Argument #3 ($ttl) must be greater than or equal to 0
increment step: ValueError: UserCache\Cache::increment(): Argument #2 ($step) must be greater than or equal to 0
decrement step: ValueError: UserCache\Cache::decrement(): Argument #2 ($step) must be greater than or equal to 0
lock: ValueError: UserCache\Cache::lock(): Argument #2 ($lease) must be greater than or equal to 0
bool(false)
lengths:
bool(true)
string(7) "longest"
key too long: ValueError: UserCache\Cache::store(): Argument #1 ($key) must not be longer than 4093 bytes
fetchMultiple key too long: ValueError: UserCache\Cache::fetchMultiple(): Argument #1 ($keys) must contain only cache keys that are not longer than 4093 bytes
storeMultiple key too long: ValueError: UserCache\Cache::storeMultiple(): Argument #1 ($values) must be an array whose keys are not longer than 4093 bytes
bool(true)
bool(true)
string(16) "so does this one"
pool name too long: ValueError: UserCache\Cache::getPool(): Argument #1 ($pool) must not be longer than 4074 bytes
