--TEST--
The OPcache user-cache functions and UserCache\Cache run unchanged over Resident
--INI--
resident.enable_cli=1
--FILE--
<?php
namespace App;

use UserCache\Availability;
use UserCache\Cache;
use function OPcache\{cache_store, cache_store_array, cache_fetch, cache_delete, cache_delete_array, cache_clear,
    cache_atomic_increment, cache_atomic_decrement, user_cache_info};

var_dump(cache_store('config', ['debug' => false]), cache_fetch('config'), cache_fetch('missing', 'dflt'));
var_dump(cache_store_array(['a' => 1, 'b' => 2], 60), cache_fetch('b'));
var_dump(cache_atomic_increment('n'), cache_atomic_increment('n', 5), cache_atomic_decrement('n', 2));
var_dump(cache_delete('a'), cache_delete('a'), cache_delete_array(['b', 'n', 'zzz']));
var_dump(user_cache_info()['available'], cache_clear(), cache_fetch('config'));

$status = Cache::getStatus();
var_dump($status->getAvailability() === Availability::Available, $status->getInfo()['available']);

$pool = Cache::getPool('sessions');
var_dump($pool->store('s1', ['user' => 42], 3600), $pool->fetch('s1'), $pool->fetch('nope', false));
var_dump($pool->storeMultiple(['s2' => 'x', 's3' => 'y']), $pool->fetchMultiple(['s2', 's3', 's4']));
var_dump($pool->delete('s2'), $pool->clear(), $pool->fetch('s3'));
// Each scope is a Resident pool of that name.
$pool->store('shared', 'via UserCache');
var_dump(\Resident\Cache::pool('sessions')->fetch('shared'), (new Cache())->fetch('shared', 'other scope'));
var_dump(Availability::cases());
try {
    $pool->store('', 1);
} catch (\ValueError $e) {
    echo $e->getMessage(), "\n";
}
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
bool(true)
bool(true)
bool(true)
array(1) {
  ["user"]=>
  int(42)
}
bool(false)
array(0) {
}
array(2) {
  ["s2"]=>
  string(1) "x"
  ["s3"]=>
  string(1) "y"
}
bool(true)
bool(true)
NULL
string(13) "via UserCache"
string(11) "other scope"
array(3) {
  [0]=>
  enum(UserCache\Availability::Available)
  [1]=>
  enum(UserCache\Availability::Disabled)
  [2]=>
  enum(UserCache\Availability::Unavailable)
}
Resident\Cache::store(): Argument #1 ($key) must not be empty
