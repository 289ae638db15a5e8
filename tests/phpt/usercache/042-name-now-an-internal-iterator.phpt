--TEST--
UserCache: an object stored by its properties whose class name is, where it is read, an alias of an internal class that keeps its state in C and takes none from properties (IteratorIterator) is a miss and its entry goes, as in the proposal (it gave what unserialize() gives: an IteratorIterator and the dynamic-property deprecation); nested in an array and stored by __sleep() too; Resident\Cache::fetch() still gives what unserialize() gives (PHP 8.3+)
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
$c = UserCache\Cache::getPool('now-internal-iterator');
$own = Resident\Cache::pool('now-internal-iterator');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class BecameIterator { public $a = 1; } class BecameIteratorSleeps { public $b = 2; public function __sleep() { return ["b"]; } }');
    foreach (['plain' => new BecameIterator(), 'nested' => ['list' => [1, 2], 'in' => new BecameIterator()], 'sleeps' => new BecameIteratorSleeps()] as $key => $value) {
        $c->store($key, $value);
        $own->store($key, $value);
        $c->store("native-$key", serialize($value));
    }
    exit(0);
}
pcntl_waitpid($pid, $status);
class_alias(IteratorIterator::class, 'BecameIterator');
class_alias(IteratorIterator::class, 'BecameIteratorSleeps');

set_error_handler(function (int $errno, string $message): bool {
    echo "  ($message)\n";
    return true;
});
function describe(mixed $value): string
{
    return is_array($value) ? 'array holding ' . get_debug_type($value['in']) : get_debug_type($value);
}
foreach (['plain', 'nested', 'sleeps'] as $key) {
    echo "$key:\n";
    $native = describe(unserialize($c->fetch("native-$key")));
    echo "  unserialize(): $native\n";
    $fetched = describe($c->fetch($key, 'a miss'));
    echo "  UserCache: $fetched, entry kept: ", var_export($c->has($key), true), "\n";
    $own_fetched = describe($own->fetch($key));
    echo "  Resident\\Cache: $own_fetched\n";
}
?>
--EXPECT--
plain:
  (Creation of dynamic property IteratorIterator::$a is deprecated)
  unserialize(): IteratorIterator
  UserCache: string, entry kept: false
  (Creation of dynamic property IteratorIterator::$a is deprecated)
  Resident\Cache: IteratorIterator
nested:
  (Creation of dynamic property IteratorIterator::$a is deprecated)
  unserialize(): array holding IteratorIterator
  UserCache: string, entry kept: false
  (Creation of dynamic property IteratorIterator::$a is deprecated)
  Resident\Cache: array holding IteratorIterator
sleeps:
  (Creation of dynamic property IteratorIterator::$b is deprecated)
  unserialize(): IteratorIterator
  UserCache: string, entry kept: false
  (Creation of dynamic property IteratorIterator::$b is deprecated)
  Resident\Cache: IteratorIterator
