--TEST--
resident.lazy_objects=1: UserCache\Cache::fetch() makes a miss of an object whose name now stands for an internal class that takes nothing from properties (an IteratorIterator alias) where the fetch itself makes it; one met only when the shell holding it is first used is made as unserialize() makes it (not an Error thrown at that use) (PHP 8.3+)
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80300) {
    die('skip class_alias() of an internal class needs PHP 8.3');
}
?>
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
user_cache.enable_cli=1
resident.zero_copy=1
resident.lazy_objects=1
--FILE--
<?php
class Holder
{
    public $in;
}
$c = UserCache\Cache::getPool('lazy-internal-alias');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class BecameIterator { public $a = 1; }');
    $holder = new Holder();
    $holder->in = new BecameIterator();
    $c->store('root', new BecameIterator());
    $c->store('held', $holder);
    exit(0);
}
pcntl_waitpid($pid, $status);
class_alias(IteratorIterator::class, 'BecameIterator');

var_dump($c->fetch('root', 'a miss'), $c->has('root'));
$holder = $c->fetch('held', 'a miss');
echo get_debug_type($holder), "\n";
try {
    echo get_debug_type($holder->in), "\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($c->has('held'));
?>
--EXPECTF--
string(6) "a miss"
bool(false)
Holder

Deprecated: Creation of dynamic property IteratorIterator::$a is deprecated in %s on line %d
IteratorIterator
bool(true)
