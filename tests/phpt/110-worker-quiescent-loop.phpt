--TEST--
A worker loop of 100,000 requests borrowing with Cache::endOfRequest() at each end: every store succeeds, limbo stays at what one request pins, memory stays flat
--INI--
resident.enable_cli=1
resident.memory=4M
resident.check_borrowed=1
--FILE--
<?php
require __DIR__ . '/checksum.inc';
use Resident\Cache;

$c = Cache::pool('worker');
// The CLI copies under zero_copy=auto until the process says where its
// requests end.
var_dump(Cache::status()['zero_copy'], Cache::endOfRequest(), Cache::status()['zero_copy']);

// The keys exist from the first request on, so that its first fetch, not
// the one measured, makes the request's lookup memo (a table of where keys
// were found, read.c), which is not a copy of a value.
for ($k = 0; $k < 8; $k++) {
    $c->store("k$k", ['i' => -1]);
}
$failed = $wrong = $copied = $maxLimbo = $limboAfter = 0;
$memory = null;
// 100,000 requests; under valgrind (~50x slower) 2,500.
$requests = resident_scaled(100000);
for ($i = 0; $i < $requests; $i++) {
    $key = 'k' . ($i % 8);
    $old = $c->fetch($key);  // borrowed: what the store below replaces stays in limbo for this request
    $value = ['i' => $i, 'payload' => str_repeat(chr(65 + $i % 26), 1000), 'list' => range($i, $i + 20)];
    if (!$c->store($key, $value)) {
        $failed++;
    }
    unset($value);
    $maxLimbo = max($maxLimbo, Cache::status()['limbo_bytes']);
    $before = memory_get_usage();
    $got = $c->fetch($key);
    if (memory_get_usage() !== $before) {
        $copied++;
    }
    if ($got['i'] !== $i || $got['list'][20] !== $i + 20 || $got['payload'] !== str_repeat(chr(65 + $i % 26), 1000)) {
        $wrong++;
    }
    unset($got, $old);
    Cache::endOfRequest();
    $limboAfter = max($limboAfter, Cache::status()['limbo_bytes']);
    if ($i === 999) {
        $memory = memory_get_usage();
    }
}
echo "stores failed: $failed, wrong reads: $wrong, fetches that allocated: $copied\n";
// One request pins one replaced entry (about 1.5 KiB) at most; none once it ended.
echo "limbo during a request: ", $maxLimbo > 0 && $maxLimbo <= 2048 ? "one entry" : $maxLimbo, ", after it: $limboAfter\n";
echo "memory growth after 1,000 requests: ", memory_get_usage() - $memory, "\n";
?>
--EXPECT--
string(4) "copy"
bool(true)
string(6) "borrow"
stores failed: 0, wrong reads: 0, fetches that allocated: 0
limbo during a request: one entry, after it: 0
memory growth after 1,000 requests: 0
