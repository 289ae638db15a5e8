--TEST--
UserCache: lock() and unlock() within a request: taking a lock again is true, unlock() only of a lock held; the holder writes, deletes and clears freely; locks are per exact key and not evicted
--INI--
user_cache.enable_cli=1
user_cache.shm_size=4M
--FILE--
<?php
$c = UserCache\Cache::getPool('locks');
var_dump($c->lock('key'), $c->lock('key'), $c->unlock('key'), $c->unlock('key'), $c->unlock('never-locked'));

echo "the holder writes its locked key:\n";
var_dump($c->lock('held'));
var_dump($c->store('held', 1), $c->add('held', 2), $c->increment('held'), $c->storeMultiple(['held' => 10, 'other' => 20]));
var_dump($c->fetch('held'), $c->delete('held'), $c->has('held'), $c->deleteMultiple(['held', 'other']));
var_dump($c->store('held', 'again'), $c->clear(), $c->has('held'));
// clear() takes the values, not the lock.
var_dump($c->unlock('held'));

echo "a lock is on one exact key:\n";
var_dump($c->lock('prefix'), $c->store('prefix:child', 'v'), $c->fetch('prefix:child'), $c->unlock('prefix'));
var_dump($c->lock('shared'), UserCache\Cache::getPool('other-pool')->lock('shared'));

echo "a lease on a held lock:\n";
var_dump($c->lock('leased', 100), $c->lock('leased', 200), $c->unlock('leased'), $c->lock('leased', 1), $c->unlock('leased'));

echo "deletePool() by the holder:\n";
$d = UserCache\Cache::getPool('deleted');
var_dump($d->lock('k'), $d->store('k', 1), UserCache\Cache::deletePool('deleted'), $d->has('k'), $d->unlock('k'));

echo "a full cache does not take locks away:\n";
$filler = UserCache\Cache::getPool('filler');
var_dump($c->lock('kept'));
for ($i = 0; $i < 2000; $i++) {
    $filler->store("f$i", str_repeat('x', 4000));
}
var_dump(UserCache\Cache::getStatus()->getEvictionCount() > 0, $c->unlock('kept'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
the holder writes its locked key:
bool(true)
bool(true)
bool(false)
int(2)
bool(true)
int(10)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
a lock is on one exact key:
bool(true)
bool(true)
string(1) "v"
bool(true)
bool(true)
bool(true)
a lease on a held lock:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
deletePool() by the holder:
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
a full cache does not take locks away:
bool(true)
bool(true)
bool(true)
