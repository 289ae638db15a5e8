--TEST--
UserCache: fetchMultiple() and storeMultiple() take their keys and values as they are when called: a key or value passed by reference that a destructor, __wakeup() or __serialize() rewrites meanwhile changes nothing; numeric keys come back as integers; a batch with a value that cannot be stored writes none of it (the proposal's user_cache_multiple)
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('batches');
var_dump($c->storeMultiple([123 => 'int key', '456' => 'numeric string key']));
var_dump($c->fetchMultiple([123, '456', 789], 'default'));

class RewritesKeyOnDestruct
{
    public function __destruct()
    {
        $GLOBALS['key'] = $GLOBALS['replacement'];
    }
}
class RewritesKeyOnWakeup
{
    public function __wakeup(): void
    {
        $GLOBALS['key'] = new stdClass();
    }
}
class RewritesValueOnSerialize
{
    public function __serialize(): array
    {
        $GLOBALS['value'] = $GLOBALS['replacement'];
        return ['x' => 1];
    }

    public function __unserialize(array $data): void
    {
    }
}
$replacement = null;
$c->store('destructs', new RewritesKeyOnDestruct());
$c->store('wakes', new RewritesKeyOnWakeup());
$c->store('plain', 'plain value');
$c->store('7', 'seven');
foreach ([null, [1, 2, 3], 12345] as $replacement) {
    $key = 'plain';
    $result = $c->fetchMultiple(['destructs', 'destructs', &$key]);
    echo json_encode(array_keys($result)), ' ', $result['plain'], "\n";
}
$key = 7;
$result = $c->fetchMultiple(['wakes', &$key]);
echo json_encode(array_keys($result)), ' ', $result[7], "\n";
foreach ([12345, 'short', str_repeat('b', 5000)] as $replacement) {
    $value = str_repeat('a', 300);
    $stored = $c->storeMultiple(['referenced' => &$value, 'hook' => new RewritesValueOnSerialize()]);
    echo var_export($stored, true), ' ', strlen($c->fetch('referenced')), ' ', $c->fetch('referenced')[0], "\n";
}

$c->store('existing', 'previous');
try {
    $c->storeMultiple(['existing' => 'replaced', 'fresh' => 1, 'bad' => fn () => 1]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->fetch('existing'), $c->has('fresh'));
?>
--EXPECT--
bool(true)
array(3) {
  [123]=>
  string(7) "int key"
  [456]=>
  string(18) "numeric string key"
  [789]=>
  string(7) "default"
}
["destructs","plain"] plain value
["destructs","plain"] plain value
["destructs","plain"] plain value
["wakes",7] seven
true 300 a
true 300 a
true 300 a
Closure objects cannot be stored in the user cache
string(8) "previous"
bool(false)
