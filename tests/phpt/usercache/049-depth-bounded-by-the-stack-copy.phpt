--TEST--
UserCache and Resident\Cache on PHP 8.3+: the C stack, not 1,024 levels, bounds how deep a value may be nested: 5,000 levels store and fetch with a 32M stack (more than 1,024 were refused whatever the stack); with a 512K Fiber stack store() refuses them and a fetch of one is a miss that keeps its entry; no depth up to 20,000 is refused without an exception (copy mode)
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip PHP 8.2 knows no C stack limit: 1,024 levels there (019-nested-too-deeply)');
}
if (getenv('SKIP_ASAN')) {
    die('skip under ASan a 512K Fiber stack holds too few levels to tell');
}
?>
--INI--
user_cache.enable_cli=1
user_cache.shm_size=64M
resident.zero_copy=0
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/stack-depth.inc';
stack_depth_run();
?>
--EXPECT--
zero_copy: copy
array, 5,000 levels:
  UserCache store, 32M: true
  UserCache fetch, 32M: 5000
  UserCache store, 512K: TypeError: Value is nested too deeply to be stored in the user cache, stored: false
  UserCache fetch, 512K: 'default', entry kept: true
  Resident store, 32M: true
  Resident fetch, 32M: 5000
  Resident store, 512K: ValueError: Resident\Cache::store(): Argument #2 ($value) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  Resident fetch, 512K: Error: the engine's stack limit
objects, 5,000 levels:
  UserCache store, 32M: true
  UserCache fetch, 32M: 5000
  UserCache store, 512K: TypeError: Value is nested too deeply to be stored in the user cache, stored: false
  UserCache fetch, 512K: 'default', entry kept: true
  Resident store, 32M: true
  Resident fetch, 32M: 5000
  Resident store, 512K: ValueError: Resident\Cache::store(): Argument #2 ($value) is nested too deeply for the stack left (zend.max_allowed_stack_size)
  Resident fetch, 512K: Error: the engine's stack limit
fetchMultiple, 512K: {"objects":"default","gone":"default"}
stored false without an exception: []
