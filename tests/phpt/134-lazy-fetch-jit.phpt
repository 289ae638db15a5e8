--TEST--
resident.lazy_objects=1 where OPcache's JIT may run: fetch() builds objects at once, because a trace that knows an object's class (final, no __set()) writes a property into its slot without the object's handlers, which a shell needs (it crashed: the write replaced the shell's record)
--EXTENSIONS--
opcache
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
resident.lazy_objects=1
opcache.enable=1
opcache.enable_cli=1
opcache.jit=tracing
opcache.jit_buffer_size=16M
opcache.jit_hot_loop=1
opcache.jit_hot_func=1
opcache.jit_hot_return=1
opcache.jit_hot_side_exit=1
--FILE--
<?php
final class Refs { public $a = 1; public $b; }
final class Other { public $x = 1; }
$c = Resident\Cache::pool('lazy-jit');
$refs = new Refs();
$refs->b = &$refs->a;
$c->store('g', ['refs' => $refs, 'other' => new Other()]);
$ops = [
    'first' => function ($v) { echo $v['other']->x, "\n"; },
    'write' => function ($v) { $v['refs']->a = 'set through a'; echo $v['refs']->b, "\n"; },
];
// The loop is hot at once: its trace runs the closures, first on objects fetched whole (lazy_objects off),
// then on what fetch() returns with it on.
foreach (['0', '1'] as $lazy) {
    ini_set('resident.lazy_objects', $lazy);
    foreach ($ops as $op) {
        $v = $c->fetch('g');
        $op($v);
    }
}
var_dump(Resident\Testing::isShell($c->fetch('g')['refs']));
?>
--EXPECT--
1
set through a
1
set through a
bool(false)
