--TEST--
info() counts per pool, status() describes the segment
--INI--
resident.enable_cli=1
resident.memory=16M
--FILE--
<?php
$c = Resident\Cache::pool('stats');
$c->store('a', 1);
$c->store('a', 2);
$c->store('b', [1, 2, 3]);
$c->fetch('a');
$c->fetch('a');
$c->fetch('missing');
$c->delete('b');
$info = $c->info();
var_dump(array_keys($info));
var_dump($info['entries'], $info['stores'], $info['hits'], $info['misses'], $info['deletes'], $info['memory'] > 0);
$s = Resident\Cache::status();
var_dump(array_keys($s));
var_dump($s['available'], $s['zero_copy'], $s['memory_size'], $s['memory_used'] + $s['memory_free'] === $s['memory_heap']);
var_dump($s['entries'] >= 1, $s['pools'] >= 2, $s['slots_used'] >= 1, $s['recoveries']);
?>
--EXPECT--
array(10) {
  [0]=>
  string(4) "name"
  [1]=>
  string(6) "pinned"
  [2]=>
  string(7) "entries"
  [3]=>
  string(6) "memory"
  [4]=>
  string(4) "hits"
  [5]=>
  string(6) "misses"
  [6]=>
  string(6) "stores"
  [7]=>
  string(7) "deletes"
  [8]=>
  string(9) "evictions"
  [9]=>
  string(11) "expirations"
}
int(1)
int(3)
int(2)
int(1)
int(1)
bool(true)
array(30) {
  [0]=>
  string(9) "available"
  [1]=>
  string(7) "version"
  [2]=>
  string(9) "zero_copy"
  [3]=>
  string(7) "segment"
  [4]=>
  string(11) "memory_size"
  [5]=>
  string(11) "memory_heap"
  [6]=>
  string(11) "memory_used"
  [7]=>
  string(11) "memory_live"
  [8]=>
  string(11) "memory_free"
  [9]=>
  string(18) "largest_free_block"
  [10]=>
  string(11) "free_blocks"
  [11]=>
  string(13) "fragmentation"
  [12]=>
  string(11) "limbo_bytes"
  [13]=>
  string(13) "limbo_entries"
  [14]=>
  string(7) "entries"
  [15]=>
  string(4) "hits"
  [16]=>
  string(6) "misses"
  [17]=>
  string(6) "stores"
  [18]=>
  string(9) "evictions"
  [19]=>
  string(11) "expirations"
  [20]=>
  string(10) "lock_waits"
  [21]=>
  string(12) "reader_waits"
  [22]=>
  string(10) "recoveries"
  [23]=>
  string(18) "dead_slots_cleared"
  [24]=>
  string(10) "slots_used"
  [25]=>
  string(11) "slots_total"
  [26]=>
  string(5) "pools"
  [27]=>
  string(7) "buckets"
  [28]=>
  string(19) "request_over_static"
  [29]=>
  string(17) "restored_at_start"
}
bool(true)
string(4) "copy"
int(16777216)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
