--TEST--
UserCache: getPoolStatus()->getUsedMemory() counts a pool's own keys and values: 0 when empty, the same for two pools holding the same, back where it was after a delete, 0 after clear(); a status object is a snapshot
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$a = UserCache\Cache::getPool('mem-a');
$b = UserCache\Cache::getPool('mem-b');
var_dump($a->getPoolStatus()->getUsedMemory());
$a->store('int', 123);
$afterInt = $a->getPoolStatus()->getUsedMemory();
$a->store('str', str_repeat('x', 100));
$snapshot = $a->getPoolStatus();
$b->store('int', 123);
$b->store('str', str_repeat('x', 100));
var_dump($afterInt > 0, $snapshot->getUsedMemory() > $afterInt, $b->getPoolStatus()->getUsedMemory() === $snapshot->getUsedMemory());
$a->store('large', str_repeat('y', 4096));
var_dump($a->getPoolStatus()->getUsedMemory() >= $snapshot->getUsedMemory() + 4096, $snapshot->getEntryCount(), $a->getPoolStatus()->getEntryCount());
$a->delete('large');
var_dump($a->getPoolStatus()->getUsedMemory() === $snapshot->getUsedMemory());
$a->clear();
var_dump($a->getPoolStatus()->getUsedMemory(), $a->getPoolStatus()->getEntryKeys(), $b->getPoolStatus()->getEntryCount());
?>
--EXPECT--
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
int(3)
bool(true)
int(0)
array(0) {
}
int(2)
