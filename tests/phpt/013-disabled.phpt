--TEST--
With Resident disabled for the CLI, the API works as an always-empty cache and says why
--INI--
resident.enable_cli=0
--FILE--
<?php
$c = Resident\Cache::pool('app');
var_dump($c->store('k', 1), $c->add('k', 1), $c->fetch('k', 'default'), $c->exists('k'));
var_dump($c->delete('k'), $c->clear(), $c->fetchMultiple(['k']), $c->storeMultiple(['k' => 1]));
var_dump($c->deleteMultiple(['k']), $c->info()['entries']);
var_dump(Resident\Cache::status());
var_dump(UserCache\Cache::getStatus()->getAvailability(), $c->increment('n'), $c->remember('r', fn() => 'computed'));
var_dump(iterator_to_array($c->keys()));
// Bad input is still refused.
try {
    $c->store('', 1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(false)
bool(false)
string(7) "default"
bool(false)
bool(false)
bool(false)
array(0) {
}
array(1) {
  [0]=>
  string(1) "k"
}
int(0)
int(0)
array(3) {
  ["available"]=>
  bool(false)
  ["version"]=>
  string(5) "0.1.0"
  ["reason"]=>
  string(43) "resident.enable_cli is off for the cli SAPI"
}
enum(UserCache\CacheAvailability::DisabledBySapi)
bool(false)
string(8) "computed"
array(0) {
}
Resident\Cache::store(): Argument #1 ($key) must not be empty
