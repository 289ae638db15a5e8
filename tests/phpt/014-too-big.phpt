--TEST--
Only a value larger than the whole cache makes store() return false, with a warning that says what it needs and what the cache can hold for it (the largest that fits is stored)
--INI--
resident.enable_cli=1
resident.memory=2M
--FILE--
<?php
$warnings = [];
set_error_handler(function (int $no, string $msg) use (&$warnings) {
    $warnings[] = $msg;
    return true;
});
$c = Resident\Cache::pool();
$heap = Resident\Cache::status()['memory_heap'];
$c->store('small', 'kept?');
var_dump($c->store('huge', str_repeat('x', 3 * 1024 * 1024)));
var_dump($c->exists('huge'), $c->fetch('small'));
var_dump($c->storeMultiple(['a' => 1, 'huge' => str_repeat('x', 3 * 1024 * 1024), 'b' => 2]));
var_dump($c->fetch('a'), $c->fetch('b'));

// Each warning names the key, what the value needs (more than the cache)
// and the most the cache can hold for that key (less than its heap).
foreach ($warnings as $w) {
    preg_match('/^Resident\\\\Cache::store(Multiple)?\(\): Value for key "huge" needs (\d+) bytes; the whole cache can hold (\d+) bytes for a value of this key$/', $w, $m);
    var_dump($m && $m[2] > $m[3] && $m[3] < $heap && $m[3] > $heap - 256);
}

// The most it can hold, less what a string's zval and header take: stored
// (everything else is evicted to make room); one byte more: refused.
preg_match('/can hold (\d+) bytes/', $warnings[0], $m);
$most = (int)$m[1];
$overhead = 3145776 - 3 * 1024 * 1024;     // the string's zval and zend_string header, rounded
$warnings = [];
var_dump($c->store('huge', str_repeat('y', $most - $overhead - 7)), strlen($c->fetch('huge')) === $most - $overhead - 7);
var_dump($c->store('huge', str_repeat('y', $most - $overhead + 9)), $warnings !== []);
?>
--EXPECT--
bool(false)
bool(false)
string(5) "kept?"
array(1) {
  [0]=>
  string(4) "huge"
}
int(1)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
