--TEST--
Request-local lookup cache for keys built at run time (and UserCache's keys, built from the caller's): served from the memo only when the entry found is the key's own; a string's address used again by another key or written in place, the same key string under two UserCache namespaces, keys built in turn into one reused string, another process's store, expiry and more built keys than the memo keeps all fetch the right value
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=1
user_cache.enable_cli=1
--FILE--
<?php
$c = Resident\Cache::pool('built-keys');
for ($i = 0; $i < 10; $i++) {
    $c->store("item:$i", "value $i");
}
$k = 'item:' . (3 + random_int(0, 0));
echo $c->fetch($k), ' | ', $c->fetch($k), "\n";

// The same address for another key: a string freed and built again.
$seen = [];
for ($i = 0; $i < 10; $i++) {
    $key = sprintf('item:%d', $i);
    $seen[] = $c->fetch($key);
    unset($key);
}
echo implode(',', array_map(fn ($v) => substr($v, 6), $seen)), "\n";

// The same string written in place: the same address, another key.
$k = 'item:' . (6 + random_int(0, 0));
echo $c->fetch($k), ' | ';
$k[5] = '7';
echo $c->fetch($k), "\n";

// Another process replaces the key: the next fetch here sees it.
$k = 'item:' . (4 + random_int(0, 0));
echo $c->fetch($k), "\n";
if (pcntl_fork() === 0) {
    $c->store('item:4', 'replaced');
    exit(0);
}
pcntl_wait($status);
echo $c->fetch($k), "\n";

// Expiry is honoured for a memoized built key.
$c->store('short:1', 'soon gone', 1);
$k = 'short:' . (1 + random_int(0, 0));
echo $c->fetch($k), "\n";
usleep(1100000);
var_dump($c->fetch($k, 'expired'));

// More built keys than the memo keeps: each still its own.
for ($i = 0; $i < 5000; $i++) {
    $c->store("many:$i", $i);
}
$wrong = 0;
$keys = [];
for ($i = 0; $i < 5000; $i++) {
    $keys[] = "many:$i";
}
for ($round = 0; $round < 2; $round++) {
    foreach ($keys as $i => $key) {
        $wrong += $c->fetch($key) !== $i;
    }
}
echo "many: $wrong wrong\n";

// Memo hits count as hits.
$k = 'item:' . (5 + random_int(0, 0));
$c->fetch($k);
$before = $c->info()['hits'];
$c->fetch($k);
$c->fetch($k);
var_dump($c->info()['hits'] - $before);

echo "-- UserCache\n";
$a = UserCache\Cache::getPool('ns-a');
$b = UserCache\Cache::getPool('ns-b');
$a->store('user:1', 'from a');
$b->store('user:1', 'from b');
$b->store('user:2', 'b two');
$key = 'user:' . (1 + random_int(0, 0));
for ($i = 0; $i < 2; $i++) {
    echo $a->fetch($key), ' | ', $b->fetch($key), "\n";
}
// Keys in turn: the store key is built into one reused string.
$k1 = 'user:' . (1 + random_int(0, 0));
$k2 = 'user:' . (2 + random_int(0, 0));
echo $b->fetch($k1), ' | ', $b->fetch($k2), ' | ', $b->fetch($k1), ' | ', $b->fetch($k2), "\n";
$b->delete('user:2');
var_dump($b->fetch($k2));
?>
--EXPECT--
value 3 | value 3
0,1,2,3,4,5,6,7,8,9
value 6 | value 7
value 4
replaced
soon gone
string(7) "expired"
many: 0 wrong
int(2)
-- UserCache
from a | from b
from a | from b
from b | b two | from b | b two
NULL
