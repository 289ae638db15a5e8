--TEST--
UserCache: getStatus() and getPoolStatus() are snapshots of the segment's and the pool's figures; their objects are readonly, equal only to themselves, neither cloned nor serialized
--INI--
user_cache.enable_cli=1
user_cache.shm_size=16M
resident.zero_copy=1
--FILE--
<?php
use UserCache\Cache;
$a = Cache::getPool('stats-a');
$b = Cache::getPool('stats-b');
$s = Cache::getStatus();
var_dump($s instanceof UserCache\CacheStatus, $s->getAvailability(), $s->getConfiguredMemory() === 16 << 20, $s->getSharedMemorySize() === 16 << 20);
// One index bucket per 512 bytes: entries beyond chain, nothing caps them.
var_dump($s->getEntryCapacity(), $s->getTombstoneCount(), $s->getExpungeCount(), $s->getCommitFailureCount(), $s->getCommittedMemory() === 16 << 20);
var_dump($s->getUsedMemory() + $s->getFreeMemory() <= $s->getSharedMemorySize());
$base = $s->getEntryCount();
$p = $a->getPoolStatus();
var_dump($p->getPoolName(), $p->getEntryCount(), $p->getEntryKeys(), $p->getUsedMemory());

echo "after stores:\n";
var_dump($a->store('x', ['value' => 1]), $a->store("nul\0key", 2), $b->store('x', 'other'));
$after = Cache::getStatus();
var_dump($after->getEntryCount() - $base, $s->getEntryCount() === $base, $after->getUsedMemory() > $s->getUsedMemory(), $after->getGraphPinSlotsInUse());
$p = $a->getPoolStatus();
$keys = $p->getEntryKeys();
sort($keys);
var_dump($p->getEntryCount(), $keys === ["nul\0key", 'x'], $p->getUsedMemory() > 0, $b->getPoolStatus()->getEntryCount());

echo "values replaced while this request still reads them wait, pinned:\n";
$held = $a->fetch('x');
$a->store('x', ['value' => 2]);
$pinned = Cache::getStatus();
var_dump($pinned->getWastedMemory() > 0, $pinned->getGraphPinnedReferences() > 0, $held['value']);

echo "a store that cannot fit is counted:\n";
$failures = $after->getStoreFailureCount();
var_dump($a->store('huge', str_repeat('x', 17 << 20)), Cache::getStatus()->getStoreFailureCount() - $failures);

echo "clear():\n";
var_dump($a->clear(), $a->getPoolStatus()->getEntryCount(), $a->getPoolStatus()->getEntryKeys(), $b->getPoolStatus()->getEntryCount());

echo "the objects:\n";
foreach ([$s, $p] as $object) {
    foreach ([fn () => serialize($object), fn () => clone $object, fn () => $object->x = 1, fn () => new (get_class($object))()] as $f) {
        try {
            $f();
            echo "no error\n";
        } catch (Throwable $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}
var_dump($s == $s, $s == Cache::getStatus(), $a->getPoolStatus() == $a->getPoolStatus());
?>
--EXPECT--
bool(true)
enum(UserCache\CacheAvailability::Available)
bool(true)
bool(true)
int(32768)
int(0)
int(0)
int(0)
bool(true)
bool(true)
string(7) "stats-a"
int(0)
array(0) {
}
int(0)
after stores:
bool(true)
bool(true)
bool(true)
int(3)
bool(true)
bool(true)
int(1)
int(2)
bool(true)
bool(true)
int(1)
values replaced while this request still reads them wait, pinned:
bool(true)
bool(true)
int(1)
a store that cannot fit is counted:
bool(false)
int(1)
clear():
bool(true)
int(0)
array(0) {
}
int(1)
the objects:
Exception: Serialization of 'UserCache\CacheStatus' is not allowed
Error: Trying to clone an uncloneable object of class UserCache\CacheStatus
Error: Cannot create dynamic property UserCache\CacheStatus::$x
Error: Call to private UserCache\CacheStatus::__construct() from global scope
Exception: Serialization of 'UserCache\CachePoolStatus' is not allowed
Error: Trying to clone an uncloneable object of class UserCache\CachePoolStatus
Error: Cannot create dynamic property UserCache\CachePoolStatus::$x
Error: Call to private UserCache\CachePoolStatus::__construct() from global scope
bool(true)
bool(false)
bool(false)
