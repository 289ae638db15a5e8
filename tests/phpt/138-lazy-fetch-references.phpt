--TEST--
resident.lazy_objects=1: a value holding a PHP reference is fetched whole: a lazy fetch keeps what it made until the request ends, so a reference held once by the value would be held twice, and a copy of the array holding it would share it (a write through the copy reached the fetched value; unserialize() and an eager fetch give a reference held once, which a copy takes as a value)
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
--FILE--
<?php
use Resident\Cache;
use Resident\Testing;

final class Box { public function __construct(public array $items) {} }

$c = Cache::pool('lazy-references');
// One reference left of two: held once by the value, as after unset().
$items = ['a' => 1];
$alias = &$items['a'];
unset($alias);
$a = ['items' => $items];
$c->store('array', $a);
$c->store('object', new Box(['x' => &$a['items']['a'], 'y' => 2]));

foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode\n";
    $v = $c->fetch('array');
    $copy = $v;
    $copy['items']['a'] = 'written through the copy';
    echo json_encode($v), "\n";
    $o = $c->fetch('object');
    var_dump(Testing::isShell($o));
    $items = $o->items;
    $items['x'] = 'written through the copy';
    echo json_encode($o->items), "\n";
}
?>
--EXPECT--
== eager
{"items":{"a":1}}
bool(false)
{"x":1,"y":2}
== lazy
{"items":{"a":1}}
bool(false)
{"x":1,"y":2}
