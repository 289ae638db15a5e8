--TEST--
Fetch, eager and lazy (resident.lazy_objects=1): properties typed with a class take back what was stored in them whatever the type names (the class itself, spelled in another case, a parent, an interface, an alias, a union, nullable, self); a type that no longer accepts the object (its class changed since the store) is a TypeError, at fetch() when eager, when the object is first used when lazy
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
--FILE--
<?php
use Resident\Cache;
use Resident\Testing;

interface Named {}
class Base {}
final class Dep extends Base implements Named { public function __construct(public string $n = 'dep') {} }
class_alias(Dep::class, 'DepAlias');
final class Typed
{
    public function __construct(
        public Dep $exact,
        public dep $otherCase,
        public Base $parent,
        public Named $iface,
        public DepAlias $alias,
        public Dep|int $union,
        public ?Dep $nullable,
        public ?self $self = null,
    ) {}
}

$c = Cache::pool('typed-class-properties');
$d = new Dep();
$t = new Typed($d, $d, $d, $d, $d, $d, $d);
$t->self = new Typed(new Dep('x'), $d, $d, $d, $d, 7, null);
$c->store('typed', $t);

foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode\n";
    $v = $c->fetch('typed');
    var_dump(Testing::isShell($v));
    echo json_encode([$v->exact->n, $v->otherCase === $v->exact, $v->parent === $v->exact, $v->iface === $v->exact,
        $v->alias === $v->exact, $v->union === $v->exact, $v->nullable === $v->exact, $v->self->exact->n, $v->self->union,
        $v->self->nullable, $v->self->self]), "\n";
}

// The child stores under the class as it was; the parent reads it where
// the property's type changed since.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class Holder { public function __construct(public Dep $dep) {} }');
    exit($c->store('changed', new Holder(new Dep('kept'))) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
eval('final class Holder { public function __construct(public Typed $dep) {} }');
foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode, the type changed\n";
    try {
        $v = $c->fetch('changed');
        echo "fetched\n";
        echo $v->dep->n, "\n";
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
== eager
bool(false)
["dep",true,true,true,true,true,true,"x",7,null,null]
== lazy
bool(true)
["dep",true,true,true,true,true,true,"x",7,null,null]
int(0)
== eager, the type changed
TypeError: Cannot assign Dep to property Holder::$dep of type Typed
== lazy, the type changed
fetched
TypeError: Cannot assign Dep to property Holder::$dep of type Typed
