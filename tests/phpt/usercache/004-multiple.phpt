--TEST--
UserCache: storeMultiple() is true or false and writes nothing when a value cannot be cached or could not fit; fetchMultiple() returns every key in order with the default; deleteMultiple(); keys and values taken before PHP code runs
--INI--
user_cache.enable_cli=1
user_cache.shm_size=2M
--FILE--
<?php
$c = UserCache\Cache::getPool('multiple');

echo "storeMultiple() and fetchMultiple():\n";
var_dump($c->storeMultiple(['one' => 1, 'two' => 'x', 123 => 'int key', '456' => 'numeric string', -7 => 'negative'], 60));
var_dump($c->fetchMultiple(['two', 'missing', 'one', 123, '456', 789, '-7'], 'default'));
var_dump($c->fetchMultiple(['missing']), $c->fetchMultiple([]), $c->storeMultiple([]));
var_dump($c->fetch('123'), $c->fetch('-7'));

echo "nothing is written when one value cannot be cached:\n";
var_dump($c->store('existing', 'previous'));
foreach ([['existing' => 'replaced', 'fresh' => 1, 'bad' => fn () => 1],
          ['existing' => 'replaced', 'fresh' => 1, 'bad' => ['deep' => fopen('php://memory', 'r')]]] as $batch) {
    try {
        $c->storeMultiple($batch);
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    var_dump($c->fetch('existing'), $c->has('fresh'));
}

echo "nor when one value is larger than the whole cache:\n";
$used = $c->getPoolStatus()->getUsedMemory();
var_dump($c->storeMultiple(['existing' => 'replaced', 'fresh' => 1, 'huge' => str_repeat('x', 3 << 20)]));
var_dump($c->fetch('existing'), $c->has('fresh'), $c->has('huge'), $c->getPoolStatus()->getUsedMemory() === $used);

echo "deleteMultiple():\n";
var_dump($c->deleteMultiple(['one', 123, 'never-stored', 'one']), $c->has('one'), $c->has('123'), $c->has('two'));

echo "keys and values are taken before PHP code runs:\n";
class RewritesKeyOnWakeup
{
    public $n = 1;
    public function __wakeup(): void { global $key; $key = new stdClass(); }
}
class RewritesValueOnSerialize
{
    public function __serialize(): array { global $value; $value = 'replaced while storing'; return ['x' => 1]; }
    public function __unserialize(array $data): void {}
}
$c->store('wakes', new RewritesKeyOnWakeup());
$c->store('plain', 'plain value');
$key = 'plain';
$r = $c->fetchMultiple(['wakes', &$key]);
var_dump(array_keys($r), $r['plain'], is_object($key));
$value = str_repeat('a', 300);
var_dump($c->storeMultiple(['referenced' => &$value, 'hook' => new RewritesValueOnSerialize()]));
var_dump(strlen($c->fetch('referenced')), $value);
?>
--EXPECT--
storeMultiple() and fetchMultiple():
bool(true)
array(7) {
  ["two"]=>
  string(1) "x"
  ["missing"]=>
  string(7) "default"
  ["one"]=>
  int(1)
  [123]=>
  string(7) "int key"
  [456]=>
  string(14) "numeric string"
  [789]=>
  string(7) "default"
  [-7]=>
  string(8) "negative"
}
array(1) {
  ["missing"]=>
  NULL
}
array(0) {
}
bool(true)
string(7) "int key"
string(8) "negative"
nothing is written when one value cannot be cached:
bool(true)
TypeError: Closure objects cannot be stored in the user cache
string(8) "previous"
bool(false)
TypeError: Resources cannot be stored in the user cache
string(8) "previous"
bool(false)
nor when one value is larger than the whole cache:
bool(false)
string(8) "previous"
bool(false)
bool(false)
bool(true)
deleteMultiple():
bool(true)
bool(false)
bool(false)
bool(true)
keys and values are taken before PHP code runs:
array(2) {
  [0]=>
  string(5) "wakes"
  [1]=>
  string(5) "plain"
}
string(11) "plain value"
bool(true)
bool(true)
int(300)
string(22) "replaced while storing"
