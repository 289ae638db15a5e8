--TEST--
resident.lazy_objects=1: an object whose class lays its properties out otherwise since the value was stored (reordered, one added, one removed) is still a shell, filled property by property when first used: it holds what an eager fetch gives it (the added one its default, the removed one a dynamic property), and a value its property's type refuses now fails the first use of an object inside instead of the fetch; what the fetch itself makes (the root) is checked at fetch(), as eagerly, so such a root fails the fetch (UserCache makes a miss of it)
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

$c = Cache::pool('lazy-layout-changed');
// The child stores under the classes as they were; the parent reads under
// the classes as the code has them now.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class Holder { public function __construct(public string $name, public ?object $held = null) {} }
        final class Moved
        {
            public function __construct(public string $a = "a", public int $b = 1, public string $gone = "g") {}
        }
        final class Retyped { public function __construct(public string $v = "text") {} }');
    exit($c->store('moved', new Holder('holder', new Moved('A', 2))) && $c->store('retyped', new Holder('holder', new Retyped()))
        && $c->store('retyped-root', new Retyped()) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
eval('final class Holder { public function __construct(public string $name, public ?object $held = null) {} }
    #[AllowDynamicProperties]
    final class Moved
    {
        public int $b = 0;
        public string $added = "default";
        public string $a = "";
    }
    final class Retyped { public int $v = 0; }');

foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode\n";
    $v = $c->fetch('moved');
    echo "fetched\n";
    $held = $v->held;
    echo "held, a shell: ", json_encode(Testing::isShell($held)), "\n";
    print_r($held);
    echo "\n";
    echo "-- a type that refuses the value now\n";
    try {
        $v = $c->fetch('retyped');
        echo "fetched\n";
        echo $v->held->v, "\n";
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo "-- the same, the value's root\n";
    try {
        $v = $c->fetch('retyped-root');
        echo "fetched\n";
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
int(0)
== eager
fetched
held, a shell: false
Moved Object
(
    [b] => 2
    [added] => default
    [a] => A
    [gone] => g
)

-- a type that refuses the value now
TypeError: Cannot assign string to property Retyped::$v of type int
-- the same, the value's root
TypeError: Cannot assign string to property Retyped::$v of type int
== lazy
fetched
held, a shell: true
Moved Object
(
    [b] => 2
    [added] => default
    [a] => A
    [gone] => g
)

-- a type that refuses the value now
fetched
TypeError: Cannot assign string to property Retyped::$v of type int
-- the same, the value's root
TypeError: Cannot assign string to property Retyped::$v of type int
