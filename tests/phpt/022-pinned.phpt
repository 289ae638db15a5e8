--TEST--
Pinned pools are never evicted; a store that finds only pinned memory left fails with a warning
--INI--
resident.enable_cli=1
resident.memory=2M
--FILE--
<?php
$routes = Resident\Cache::pool('routes', pinned: true);
$routes->store('table', str_repeat('r', 200000));
$cache = Resident\Cache::pool();
for ($i = 0; $i < 200; $i++) {
    $cache->store("churn:$i", str_repeat('c', 50000));     // 10 MB through a 2 MB cache
}
var_dump(strlen($routes->fetch('table')), $routes->info()['evictions'], $cache->info()['evictions'] > 0);

// Fill the pinned pool until nothing is left to evict.
$stored = 0;
for ($i = 0; $i < 100; $i++) {
    if (!@$routes->store("big:$i", str_repeat('p', 100000))) {
        break;
    }
    $stored++;
}
var_dump($stored > 10);
// It failed because no room could be made: CLOCK evicted every unpinned
// entry (and what is free is scattered among pinned ones), or, before it
// swept, what is free, in limbo and unpinned fell short of one more value
// (a store that cannot succeed fails at once), or CLOCK's three rounds ran
// out with a few unpinned entries left (scattered among pinned ones, a
// round evicts a pair of them: the last ones are evicted by the next
// store). Which it is depends on the layout, and so on the segment's
// random hash seed. The next store fails too, and then nothing unpinned is
// left, or what is left could not make room.
$routes->store('one-more', str_repeat('p', 100000));
$s = Resident\Cache::status();
$unpinned = $cache->info();
var_dump($unpinned['entries'] === 0 || $s['memory_free'] + $s['limbo_bytes'] + $unpinned['memory'] < 100000 + 4096);
var_dump($cache->store('unpinned', str_repeat('u', 100000)));
var_dump($routes->info()['pinned'], $routes->info()['evictions'], strlen($routes->fetch('table')));
?>
--EXPECTF--
int(200000)
int(0)
bool(true)
bool(true)

Warning: Resident\Cache::store(): Pinned pool "routes" is full: no room for key "one-more" (%d bytes), and pinned entries are never evicted in %s on line %d
bool(true)

Warning: Resident\Cache::store(): No room for key "unpinned" (%d bytes): what is left is pinned or still read by requests in flight in %s on line %d
bool(false)
bool(true)
int(0)
int(200000)
