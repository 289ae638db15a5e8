--TEST--
memory_limit reached while an object graph is written (the one-pass path, sized by the last value of its class) leaves the segment unlocked and the reservation freed: the process's next store works (php-fpm's next request; here a shutdown function)
--SKIPIF--
<?php
// Debian's PHP 8.2 lets internal code run on past memory_limit until
// control returns to PHP code: the 8.4 debug build (upstream behaviour)
// runs this test.
if (PHP_VERSION_ID < 80400) die('skip memory_limit must end internal code at once (PHP 8.4 build of make test)');
?>
--ENV--
USE_ZEND_ALLOC=0
USE_TRACKED_ALLOC=1
--INI--
resident.enable_cli=1
resident.testing=1
memory_limit=32M
--FILE--
<?php
final class Node { public array $children = []; public string $name = ''; }
$tree = function (): Node {
    $root = new Node();
    for ($i = 0; $i < 100; $i++) {
        $child = new Node();
        $child->name = "child $i";
        $root->children[] = $child;
    }
    return $root;
};
$c = Resident\Cache::pool('oom');
// The next Node is written in one pass, into a reservation the size of
// this one: small enough to be written while holding the lock before.
var_dump($c->store('first', $tree()));
$used = Resident\Cache::status()['memory_used'];
register_shutdown_function(function () use ($c, $used) {
    ini_set('memory_limit', '32M');
    var_dump($c->store('after', 'stored after the fatal error'), $c->fetch('after'));
    var_dump(Resident\Testing::check(), Resident\Cache::status()['memory_used'] > $used);
    $keys = iterator_to_array($c->keys());
    sort($keys);
    var_dump($keys);
});
$second = $tree();
// Every allocation is checked against the limit (USE_TRACKED_ALLOC; the
// USE_ZEND_ALLOC=0 it needs): the encoding's table of the objects it met
// cannot grow past its first few.
ini_set('memory_limit', (string)(memory_get_usage() + 512));
$c->store('second', $second);
echo "not reached\n";
?>
--EXPECTF--
bool(true)

Fatal error: Allowed memory size of %d bytes exhausted%s(tried to allocate %d bytes) in %s on line %d
bool(true)
string(28) "stored after the fatal error"
NULL
bool(true)
array(2) {
  [0]=>
  string(5) "after"
  [1]=>
  string(5) "first"
}
