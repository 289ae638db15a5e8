--TEST--
The OPcache user-cache functions run unchanged over Resident (UserCache\Cache: tests/phpt/usercache/)
--INI--
resident.enable_cli=1
--FILE--
<?php
namespace App;

use function OPcache\{cache_store, cache_store_array, cache_fetch, cache_delete, cache_delete_array, cache_clear,
    cache_atomic_increment, cache_atomic_decrement, user_cache_info};

var_dump(cache_store('config', ['debug' => false]), cache_fetch('config'), cache_fetch('missing', 'dflt'));
var_dump(cache_store_array(['a' => 1, 'b' => 2], 60), cache_fetch('b'));
var_dump(cache_atomic_increment('n'), cache_atomic_increment('n', 5), cache_atomic_decrement('n', 2));
var_dump(cache_delete('a'), cache_delete('a'), cache_delete_array(['b', 'n', 'zzz']));
var_dump(user_cache_info()['available'], cache_clear(), cache_fetch('config'));

?>
--EXPECT--
bool(true)
array(1) {
  ["debug"]=>
  bool(false)
}
string(4) "dflt"
array(0) {
}
int(2)
int(1)
int(6)
int(4)
bool(true)
bool(false)
int(2)
bool(true)
bool(true)
NULL
