--TEST--
UserCache and Resident\Cache on PHP 8.3+ (borrow mode): with a 256K Fiber stack, 5,000 levels are refused by store(), add(), storeMultiple() and remember() (TypeError for UserCache, ValueError for Resident\Cache), nothing is stored and the cache goes on working; a fetch there of what a 32M stack stored is a miss that keeps the entry (UserCache) or the engine's Error (Resident\Cache), and the main stack fetches it whole; 100,000 levels from the main stack are refused, not a crash
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip PHP 8.2 knows no C stack limit: 1,024 levels there (019-nested-too-deeply)');
}
if (getenv('SKIP_ASAN')) {
    die('skip under ASan a 256K Fiber stack holds too few levels to tell');
}
?>
--INI--
user_cache.enable_cli=1
user_cache.shm_size=64M
resident.enable_cli=1
resident.zero_copy=1
memory_limit=1G
zend.exception_ignore_args=1
--FILE--
<?php
require __DIR__ . '/stack-left.inc';
stack_left_run();
?>
--EXPECT--
zero_copy: borrow
UserCache, stored with a 32M stack: true
UserCache, 5,000 levels with a 256K stack:
  store: TypeError: Value is nested too deeply to be stored in the user cache
  add: TypeError: Value is nested too deeply to be stored in the user cache
  storeMultiple: TypeError: Value is nested too deeply to be stored in the user cache
  remember: TypeError: Value is nested too deeply to be stored in the user cache
  then a store and a fetch: '[[1]]'
  fetch of the array: 5000
  fetch of the links: 'default'
  fetchMultiple: '{"array":5000,"links":"\'default\'"}'
  stored from the 256K stack: []
  fetched with the main stack: 5000 levels, 2000 links
Resident, stored with a 32M stack: true
Resident, 5,000 levels with a 256K stack:
  store: ValueError: Resident\Cache::store(): Argument #2 ($value) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  add: ValueError: Resident\Cache::add(): Argument #2 ($value) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  storeMultiple: ValueError: Resident\Cache::storeMultiple(): Argument #1 ($values) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  remember: ValueError: Resident\Cache::remember(): Argument #2 ($compute) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  then a store and a fetch: '[[1]]'
  fetch of the array: 5000
  fetch of the links: Error: the engine's stack limit
  fetchMultiple: Error: the engine's stack limit
  stored from the 256K stack: []
  fetched with the main stack: 5000 levels, 2000 links
UserCache, 100,000 levels from the main stack: TypeError: Value is nested too deeply to be stored in the user cache, stored: false
Resident, 100,000 levels from the main stack: ValueError: Resident\Cache::store(): Argument #2 ($value) is nested too deeply for the stack left (zend.max_allowed_stack_size), stored: false
