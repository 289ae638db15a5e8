--TEST--
UserCache: storeMultiple() whose values each fit but not together (eviction_policy=none) is false and leaves none of its keys, and the memory is as before; a smaller store then reuses the room
--INI--
user_cache.enable_cli=1
user_cache.shm_size=1M
user_cache.eviction_policy=none
--FILE--
<?php
use UserCache\Cache;

$memory = function (): array {
    $s = Cache::getStatus();
    return [$s->getUsedMemory(), $s->getFreeMemory(), $s->getEntryCount()];
};
$c = Cache::getPool('batch');
$c->store('kept', str_repeat('k', 16 * 1024));
$before = $memory();

var_dump($c->storeMultiple(['first' => str_repeat('x', 400 * 1024), 'second' => str_repeat('y', 700 * 1024)]));
var_dump($c->has('first'), $c->has('second'), $memory() === $before);
var_dump($c->store('first', str_repeat('x', 400 * 1024)), $c->fetch('kept') === str_repeat('k', 16 * 1024));
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
