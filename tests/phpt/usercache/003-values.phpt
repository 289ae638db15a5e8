--TEST--
UserCache: store(), add(), fetch() with its default, has(), delete() (true whether or not the key was there), TTLs, and values as unserialize(serialize()) gives them
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('values');

echo "store, fetch, has:\n";
var_dump($c->store('array', ['x' => 1]), $c->fetch('array'), $c->has('array'), $c->has('missing'));
$copy = $c->fetch('array');
$copy['x'] = 2;
var_dump($c->fetch('array')['x']);
var_dump($c->fetch('missing'), $c->fetch('missing', 'default'), $c->fetch('missing', null));
foreach ([null, false, true, 0, -1, PHP_INT_MIN, 1.5, -0.0, '', "bin\0ary", [], [[]]] as $i => $v) {
    $c->store("scalar-$i", $v);
    if ($c->fetch("scalar-$i", 'MISS') !== $v || !$c->has("scalar-$i")) {
        echo "scalar $i differs\n";
    }
}
var_dump(fdiv(1, $c->fetch('scalar-7')));

echo "add() stores only when the key is absent:\n";
var_dump($c->add('added', 'first'), $c->add('added', 'second'), $c->fetch('added'));
var_dump($c->store('added', 'overwritten'), $c->fetch('added'), $c->delete('added'), $c->add('added', 'after delete'), $c->fetch('added'));

echo "delete() is true whether or not the key was there:\n";
var_dump($c->delete('added'), $c->delete('added'), $c->delete('never-stored'), $c->has('added'));

echo "keys with a NUL byte are keys of their own:\n";
var_dump($c->store("k\0a", 'a'), $c->store("k\0b", 'b'), $c->fetch("k\0a"), $c->fetch("k\0b"), $c->fetch('k', 'MISS'));

echo "objects come back as unserialize(serialize()) gives them:\n";
class Point { public function __construct(public int $x = 0, public ?Point $next = null) {} }
$p = new Point(1);
$p->next = $p;
$c->store('point', [$p, $p]);
$back = $c->fetch('point');
var_dump($back[0] === $back[1], $back[0]->next === $back[0], $back[0]->x, $back[0] !== $p);

echo "TTL:\n";
var_dump($c->store('short', 'v', 1), $c->add('short-add', 'v', 1), $c->store('forever', 'v'));
var_dump($c->store('shortened', 'v1'), $c->store('shortened', 'v2', 1), $c->store('lengthened', 'v1', 1), $c->store('lengthened', 'v2'));
sleep(2);
var_dump($c->fetch('short', 'expired'), $c->has('short'), $c->fetch('short-add', 'expired'), $c->fetch('forever'));
var_dump($c->fetch('shortened', 'expired'), $c->fetch('lengthened'));
// An expired key is absent for add().
var_dump($c->add('short', 'new'), $c->fetch('short'));
?>
--EXPECT--
store, fetch, has:
bool(true)
array(1) {
  ["x"]=>
  int(1)
}
bool(true)
bool(false)
int(1)
NULL
string(7) "default"
NULL
float(-INF)
add() stores only when the key is absent:
bool(true)
bool(false)
string(5) "first"
bool(true)
string(11) "overwritten"
bool(true)
bool(true)
string(12) "after delete"
delete() is true whether or not the key was there:
bool(true)
bool(true)
bool(true)
bool(false)
keys with a NUL byte are keys of their own:
bool(true)
bool(true)
string(1) "a"
string(1) "b"
string(4) "MISS"
objects come back as unserialize(serialize()) gives them:
bool(true)
bool(true)
int(1)
bool(true)
TTL:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(7) "expired"
bool(false)
string(7) "expired"
string(1) "v"
string(7) "expired"
string(2) "v2"
bool(true)
string(3) "new"
