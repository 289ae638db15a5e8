--TEST--
UserCache: expired entries give their memory back without memory pressure: to writes alone (of other keys, without TTLs), and to a process that only read them (at the end of its request, or at its next write: a scan of up to 4,096 index buckets; this test sleeps 6 s)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
user_cache.shm_size=1M
--FILE--
<?php
use UserCache\Cache;

$c = Cache::getPool('expiring');
$status = fn () => Cache::getStatus();
$c->store('warm', 0);
$free = $status()->getFreeMemory();
$entries = $status()->getEntryCount();

function seed(Cache $c): void {
    for ($i = 0; $i < 100; $i++) {
        $c->store("e$i", str_repeat('x', 2000), 1);
    }
}

echo "read by another process only:\n";
seed($c);
sleep(2);
var_dump($status()->getEntryCount() - $entries, $status()->getFreeMemory() < $free);
$pid = pcntl_fork();
if ($pid === 0) {
    $misses = 0;
    for ($i = 0; $i < 100; $i++) {
        $misses += $c->fetch("e$i", 'miss') === 'miss';
    }
    echo "child missed $misses\n";
    exit(0);
}
pcntl_waitpid($pid, $st);
var_dump($status()->getEntryCount() - $entries, $status()->getFreeMemory() - $free);

echo "writes of other keys only:\n";
seed($c);
sleep(2);
for ($i = 0; $i < 100; $i++) {
    $c->store('other' . ($i % 4), "v$i");
}
$c->deleteMultiple(['other0', 'other1', 'other2', 'other3']);
var_dump($status()->getEntryCount() - $entries, $status()->getFreeMemory() - $free);

echo "read, then one write:\n";
seed($c);
sleep(2);
for ($i = 0; $i < 100; $i++) {
    $c->fetch("e$i");
}
$c->store('one', 1);
$c->delete('one');
var_dump($status()->getEntryCount() - $entries, $status()->getFreeMemory() - $free);
var_dump($status()->getEvictionCount(), $status()->getExpungeCount());
?>
--EXPECT--
read by another process only:
int(100)
bool(true)
child missed 100
int(0)
int(0)
writes of other keys only:
int(0)
int(0)
read, then one write:
int(0)
int(0)
int(0)
int(0)
