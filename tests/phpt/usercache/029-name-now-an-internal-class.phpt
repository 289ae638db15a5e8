--TEST--
UserCache: a class name that has become an alias of an internal class (PHP 8.3+) restores as unserialize() would: one that cannot be serialized (Closure) is a miss and its entry goes (Resident\Cache: unserialize()'s Exception), one with __unserialize() gets the properties through it and its exception reaches the caller (an object was made from them before, or a Closure: a crash)
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip class_alias() of an internal class needs PHP 8.3');
}
?>
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('now-internal');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class BecameClosure {} class BecameRandomizer {} class BecameArrayObject { public $a = 1; }');
    foreach (['closure' => new BecameClosure(), 'randomizer' => ['in' => new BecameRandomizer()], 'array-object' => new BecameArrayObject()] as $key => $value) {
        $c->store($key, $value);
        Resident\Cache::pool('now-internal')->store($key, $value);
        $c->store("native-$key", serialize($value));
    }
    exit(0);
}
pcntl_waitpid($pid, $status);
class_alias(Closure::class, 'BecameClosure');
class_alias(Random\Randomizer::class, 'BecameRandomizer');
class_alias(ArrayObject::class, 'BecameArrayObject');

function outcome(Closure $read): string
{
    try {
        return get_debug_type($read());
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}
foreach (['closure', 'randomizer', 'array-object'] as $key) {
    echo "$key:\n";
    echo '  unserialize(): ', outcome(fn () => unserialize($c->fetch("native-$key"))), "\n";
    echo '  UserCache: ', outcome(fn () => $c->fetch($key, 'a miss')), ', entry kept: ', var_export($c->has($key), true), "\n";
    echo '  Resident\Cache: ', outcome(fn () => Resident\Cache::pool('now-internal')->fetch($key)), "\n";
}
?>
--EXPECT--
closure:
  unserialize(): Exception: Unserialization of 'Closure' is not allowed
  UserCache: string, entry kept: false
  Resident\Cache: Exception: Unserialization of 'Closure' is not allowed
randomizer:
  unserialize(): Exception: Invalid serialization data for Random\Randomizer object
  UserCache: Exception: Invalid serialization data for Random\Randomizer object, entry kept: true
  Resident\Cache: Exception: Invalid serialization data for Random\Randomizer object
array-object:
  unserialize(): UnexpectedValueException: Incomplete or ill-typed serialization data
  UserCache: UnexpectedValueException: Incomplete or ill-typed serialization data, entry kept: true
  Resident\Cache: UnexpectedValueException: Incomplete or ill-typed serialization data
