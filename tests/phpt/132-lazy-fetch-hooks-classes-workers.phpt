--TEST--
resident.lazy_objects=1: a graph holding an object whose fetch runs code (__wakeup(), __unserialize(), Serializable) or that has a destructor is fetched whole, so hooks and destructors run when and as often as with an eager fetch; a class not linked yet is autoloaded when the property holding it is first used; Cache::endOfRequest() in a worker fills and lets go of what fetch() restored lazily instead of refusing
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
use Resident\Cache;
use Resident\Testing;

class Plain { public function __construct(public string $name, public mixed $held = null) {} }
final class Woken
{
    public function __construct(public string $name) {}
    public function __wakeup(): void { echo "  __wakeup {$this->name}\n"; }
}
final class Unser
{
    public function __construct(public string $name) {}
    public function __serialize(): array { return ['n' => $this->name]; }
    public function __unserialize(array $d): void { $this->name = $d['n']; echo "  __unserialize {$this->name}\n"; }
}
final class Bye
{
    public function __construct(public string $name) {}
    public function __destruct() { echo "  __destruct {$this->name}\n"; }
}

$c = Cache::pool('lazy-hooks');
$c->store('plain', [new Plain('a', new Plain('b')), new Plain('c')]);
$c->store('hooks', new Plain('outer', [new Plain('mid', new Woken('w1')), new Unser('u1'), new Woken('w2')]));
$c->store('destructor', new Plain('outer', new Plain('mid', new Bye('bye'))));

foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    ini_set('resident.lazy_objects', $setting);
    echo "== $mode\n";
    echo "-- a graph without hooks\n";
    $v = $c->fetch('plain');
    var_dump(Testing::isShell($v[0]), $v[0]->held->name);
    echo "-- hooks\n";
    echo "fetching\n";
    $v = $c->fetch('hooks');
    echo "fetched, shell: ", json_encode(Testing::isShell($v)), "\n";
    echo $v->held[0]->held->name, ' ', $v->held[1]->name, "\n";
    echo "-- a destructor\n";
    $v = $c->fetch('destructor');
    echo "fetched, shell: ", json_encode(Testing::isShell($v)), "\n";
    unset($v);
    echo "released\n";
}

echo "== a class not linked yet: autoloaded when first used\n";
$file = sys_get_temp_dir() . '/resident-132-' . getmypid() . '.php';
file_put_contents($file, '<?php final class Late { public function __construct(public string $v) {} }');
request(function () use ($c, $file) {
    require $file;
    $c->store('late', new Plain('holder', new Late('late value')));
});
foreach (['0' => 'eager', '1' => 'lazy'] as $setting => $mode) {
    request(function () use ($c, $file, $setting, $mode) {
        spl_autoload_register(function ($class) use ($file) { echo "  autoload $class\n"; require $file; });
        ini_set('resident.lazy_objects', $setting);
        echo "$mode: fetching\n";
        $v = $c->fetch('late');
        echo "fetched\n";
        echo $v->name, "\n";
        echo $v->held->v, "\n";
    });
}
unlink($file);

echo "== a worker: endOfRequest() fills and lets go of lazily fetched graphs\n";
ini_set('resident.lazy_objects', '1');
for ($request = 1; $request <= 2; $request++) {
    $v = $c->fetch('plain');
    echo "request $request: shell ", json_encode(Testing::isShell($v[0])), ', ', $v[1]->name, "\n";
    unset($v);
    // Only before the process's first call: after it, a fetch's objects would outlive the next boundary.
    var_dump(Cache::endOfRequest());
}
?>
--EXPECT--
  __destruct bye
== eager
-- a graph without hooks
bool(false)
string(1) "b"
-- hooks
fetching
  __wakeup w1
  __unserialize u1
  __wakeup w2
fetched, shell: false
w1 u1
-- a destructor
fetched, shell: false
  __destruct bye
released
== lazy
-- a graph without hooks
bool(true)
string(1) "b"
-- hooks
fetching
  __wakeup w1
  __unserialize u1
  __wakeup w2
fetched, shell: false
w1 u1
-- a destructor
fetched, shell: false
  __destruct bye
released
== a class not linked yet: autoloaded when first used
eager: fetching
  autoload Late
fetched
holder
late value
lazy: fetching
fetched
holder
  autoload Late
late value
== a worker: endOfRequest() fills and lets go of lazily fetched graphs
request 1: shell true, c
bool(true)
request 2: shell false, c
bool(true)
