--TEST--
resident.lazy_objects=1: an object whose class gained __wakeup() since the value was stored (its properties unchanged) is no shell: its __wakeup() runs, as with an eager fetch (filled as a shell, it never ran); at fetch() for the value's root, when the object holding it is first used for one inside
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

$c = Cache::pool('lazy-gained-wakeup');
// The child stores under the classes as they were (no hook: the value is
// one a fetch may restore lazily); the parent reads under the classes as
// the code has them now.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class Holder { public function __construct(public string $name, public ?object $held = null) {} }
        final class Gains { public function __construct(public string $name) {} }');
    exit($c->store('root', new Gains('root')) && $c->store('inside', new Holder('holder', new Gains('inside'))) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
eval('final class Holder { public function __construct(public string $name, public ?object $held = null) {} }
    final class Gains
    {
        public function __construct(public string $name) {}
        public function __wakeup(): void { echo "  __wakeup {$this->name}\n"; }
    }');

foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode\n";
    echo "fetching the root\n";
    $v = $c->fetch('root');
    echo "fetched, shell: ", json_encode(Testing::isShell($v)), "\n";
    echo $v->name, "\n";
    echo "fetching its holder\n";
    $v = $c->fetch('inside');
    echo "fetched, holder a shell: ", json_encode(Testing::isShell($v)), "\n";
    echo $v->held->name, "\n";
}
?>
--EXPECT--
int(0)
== eager
fetching the root
  __wakeup root
fetched, shell: false
root
fetching its holder
  __wakeup inside
fetched, holder a shell: false
inside
== lazy
fetching the root
  __wakeup root
fetched, shell: false
root
fetching its holder
fetched, holder a shell: true
  __wakeup inside
inside
