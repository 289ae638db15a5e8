--TEST--
UserCache: under memory pressure the entries read or stored last stay (CLOCK evicts the entry stored first among the next few it may take, a read counts for two rounds) and the old unread ones go; a value a few bytes larger than the ones it replaces evicts about 1.2 of them, never a wipe; mixed sizes evict without failing or wiping
--INI--
user_cache.enable_cli=1
user_cache.shm_size=4M
user_cache.entries_hint=2048
--FILE--
<?php
function counts(): array
{
    $s = UserCache\Cache::getStatus();
    return [$s->getEvictionCount(), $s->getExpungeCount(), $s->getStoreFailureCount()];
}

echo "-- read and stored last\n";
$c = UserCache\Cache::getPool('order');
$value = str_repeat('v', 8192);
// Nearly full: a dozen more fit.
for ($i = 0; $i < 476; $i++) {
    $c->store("old$i", $value . $i);
}
$first = counts();
var_dump($c->lock('old3'));
for ($i = 10; $i < 20; $i++) {
    $c->fetch("old$i");
}
$stored = 0;
for ($i = 0; $i < 30; $i++) {
    $stored += (int)$c->store("new$i", $value . "new$i");
}
$read = 0;
for ($i = 10; $i < 20; $i++) {
    $read += (int)($c->fetch("old$i") !== null);
}
$new = 0;
for ($i = 0; $i < 30; $i++) {
    $new += (int)$c->has("new$i");
}
[$evicted, $wiped, $failed] = counts();
echo "stored $stored of 30, read and kept $read of 10, new and kept $new of 30\n";
var_dump($evicted - $first[0] >= 15, $wiped - $first[1], $failed - $first[2]);
for ($i = 0; $i < 600; $i++) {
    $c->store("churn$i", $value . "churn$i");
}
var_dump($c->fetch('old3') === $value . '3', $c->has('old2'), $c->has('old4'));
var_dump($c->unlock('old3'));
$c->clear();

echo "-- a little larger than the ones it replaces\n";
$c = UserCache\Cache::getPool('straddle');
$value = str_repeat('s', 8196);
for ($i = 0; $i < 476; $i++) {
    $c->store("k$i", $value . $i);
}
[$evicted0, $wiped0, $failed0] = counts();
$stored = 0;
for ($i = 100; $i < 700; $i++) {
    $stored += (int)$c->store("wide$i", $value . "wide$i");
}
[$evicted, $wiped, $failed] = counts();
echo "stored $stored of 600\n";
// About 1.2 victims per store (CLOCK's victims are all over the heap, and
// a window of neighbours completes them; the proposal evicts at most 1.02):
// a wipe, or eviction running wild, would be hundreds more.
var_dump($evicted - $evicted0 <= 750, $wiped - $wiped0, $failed - $failed0);
var_dump(UserCache\Cache::getStatus()->getWastedMemory() < 64 * 1024);
var_dump($c->fetch('wide699') === $value . 'wide699');
$c->clear();

echo "-- mixed sizes, more entries than the table was sized for\n";
$c = UserCache\Cache::getPool('mixed');
[$evicted0, $wiped0, $failed0] = counts();
$sizes = [100, 300, 700, 1100, 1500, 2100, 3000, 3900];
mt_srand(7);
$stored = 0;
for ($i = 0; $i < 6000; $i++) {
    $stored += (int)$c->store("m$i", str_repeat('m', $sizes[mt_rand(0, 7)] + mt_rand(0, 300)));
}
[$evicted, $wiped, $failed] = counts();
echo "stored $stored of 6000\n";
var_dump($evicted > $evicted0, $wiped - $wiped0, $failed - $failed0, UserCache\Cache::getStatus()->getEntryCount() > 1000);
?>
--EXPECT--
-- read and stored last
bool(true)
stored 30 of 30, read and kept 10 of 10, new and kept 30 of 30
bool(true)
int(0)
int(0)
bool(true)
bool(false)
bool(false)
bool(true)
-- a little larger than the ones it replaces
stored 600 of 600
bool(true)
int(0)
int(0)
bool(true)
bool(true)
-- mixed sizes, more entries than the table was sized for
stored 6000 of 6000
bool(true)
int(0)
int(0)
bool(true)
