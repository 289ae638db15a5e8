--TEST--
Objects stored by a __sleep() selection come back as unserialize(serialize()) gives them, whether the selection names properties in declaration order (every one, or some: its record is then written into the slots in one pass, the others taking their defaults, as a plain object's is) or not (another order, a parent's private property, an unset typed one, which comes back with its default), each __wakeup() called once; and under classes changed since the store (a property retyped, added, removed, reordered, made private in a parent) a fetch gives what unserialize() of the same value's serialize() string gives, or fails where it fails
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.testing=1
--FILE--
<?php
use Resident\Cache;

class Base { private string $secret = 'base'; public function secret(): string { return $this->secret; } }
class All
{
    public static int $wakeups = 0;
    public ?All $parent = null;
    public array $children = [];
    public function __construct(public string $name = '', public int|float $n = 0) {}
    public function __sleep(): array { return ['parent', 'children', 'name', 'n']; }
    public function __wakeup(): void { self::$wakeups++; }
}
// Base's private $secret is slot 0: naming it too, in order, covers every slot.
class WithSecret extends Base
{
    public function __construct(public string $name = '') {}
    public function __sleep(): array { return ["\0Base\0secret", 'name']; }
}
class Reordered
{
    public function __construct(public string $a = 'a', public string $b = 'b') {}
    public function __sleep(): array { return ['b', 'a']; }
}
class Subset
{
    public string $origin = 'constructor';
    public function __construct(public int $id = 0) {}
    public function __sleep(): array { return ['id']; }
    public function __wakeup(): void { $this->origin = 'cache'; }
}
// Left out: a refcounted default, and a typed property with none (uninitialized).
class SubsetTyped
{
    public array $cache = ['warm' => false];
    public int $late;
    public function __construct(public string $id = '') {}
    public function __sleep(): array { return ['id']; }
}
class Unset_
{
    public int $kept = 1;
    public int $dropped = 2;
    public function __sleep(): array { return ['kept', 'dropped']; }
}

$root = new All('root', 0);
for ($i = 0; $i < 3; $i++) {
    $child = new All("c$i", $i / 2);
    $child->parent = $root;
    $root->children[] = $child;
}
$unset = new Unset_();
unset($unset->dropped);
$value = ['tree' => $root, 'secret' => new WithSecret('w'), 'reordered' => new Reordered('x', 'y'),
    'subset' => [new Subset(1), new Subset(2)], 'unset' => $unset, 'typed' => new SubsetTyped('t')];

$dump = function (mixed $v): string {
    ob_start();
    var_dump($v);
    return preg_replace('/#\d+/', '#', ob_get_clean());   // object ids differ
};
All::$wakeups = 0;
$want = unserialize(serialize($value));
$wakeups = All::$wakeups;
foreach (['1' => 'borrowing', '0' => 'copying'] as $zc => $mode) {
    ini_set('resident.zero_copy', $zc);
    $c = Cache::pool("sleep-dense-$zc");
    $c->store('v', $value);
    All::$wakeups = 0;
    $got = $c->fetch('v');
    echo "$mode: var_dump ", var_export($dump($got) === $dump($want), true), ', serialize ', var_export(serialize($got) === serialize($want), true),
        ', __wakeup() calls ', All::$wakeups, ' (unserialize: ', $wakeups, ")\n";
    echo '  the tree: ', $got['tree']->children[2]->parent === $got['tree'] ? 'one root' : 'copies', ', ', $got['tree']->children[1]->n,
        '; secret ', $got['secret']->secret(), '; reordered ', $got['reordered']->a, $got['reordered']->b, '; subset ',
        $got['subset'][1]->id, ' from ', $got['subset'][1]->origin, '; unset: ', json_encode(get_object_vars($got['unset'])), "\n";
    try {
        echo '  typed: ', $got['typed']->id, ' ', json_encode($got['typed']->cache), ' ', $got['typed']->late, "\n";
    } catch (Error $e) {
        echo $e->getMessage(), "\n";
    }
}

// The child stores under the classes as they were, the value and its
// serialize() string; the parent reads both under the classes as they are.
$c = Cache::pool('sleep-dense-changed');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class Retyped { public function __construct(public int $a = 1, public string $b = "b") {} public function __sleep(): array { return ["a", "b"]; } }
        class Added { public function __construct(public string $a = "a", public string $b = "b") {} public function __sleep(): array { return ["a", "b"]; } }
        class Removed { public function __construct(public string $a = "a", public string $b = "b") {} public function __sleep(): array { return ["a", "b"]; } }
        class Swapped { public function __construct(public string $a = "a", public string $b = "b") {} public function __sleep(): array { return ["a", "b"]; } }
        class Hidden { public function __construct(public string $x = "x", public string $y = "y") {} public function __sleep(): array { return ["x", "y"]; } }
        class Widened { public function __construct(public int $n = 7, public string $s = "s") {} public function __sleep(): array { return ["n", "s"]; } }');
    $ok = true;
    foreach (['Retyped', 'Added', 'Removed', 'Swapped', 'Hidden', 'Widened'] as $class) {
        $v = [new $class(), new $class()];
        $ok = $ok && $c->store($class, $v) && $c->store("$class-s", serialize($v));
    }
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
echo 'stored: ', pcntl_wexitstatus($status), "\n";
eval('class Retyped { public function __construct(public array $a = [], public string $b = "") {} }
    class Added { public string $c = "added"; public function __construct(public string $a = "", public string $b = "") {} }
    #[AllowDynamicProperties]
    class Removed { public function __construct(public string $a = "") {} }
    class Swapped { public function __construct(public string $b = "", public string $a = "") {} }
    class HiddenBase { private string $x = "hidden"; }
    #[AllowDynamicProperties]
    class Hidden extends HiddenBase { public function __construct(public string $y = "") {} }
    class Widened { public function __construct(public int|string $n = "", public string $s = "") {} }');
foreach ([1, 0] as $zc) {
    ini_set('resident.zero_copy', (string)$zc);
    foreach (['Retyped', 'Added', 'Removed', 'Swapped', 'Hidden', 'Widened'] as $class) {
        $outcome = function (callable $get) use ($dump): string {
            try {
                return $dump($get());
            } catch (Throwable $e) {
                return get_class($e) . ': ' . $e->getMessage();
            }
        };
        $got = $outcome(fn () => $c->fetch($class));
        $want = $outcome(fn () => unserialize($c->fetch("$class-s")));
        echo $zc ? 'borrowing' : 'copying', " $class: ", $got === $want ? 'as unserialize()' : "differs:\n$got\nunserialize():\n$want", ' (',
            str_starts_with($got, 'array') ? 'restored' : strtok($got, ':'), ")\n";
    }
}
?>
--EXPECT--
borrowing: var_dump true, serialize true, __wakeup() calls 4 (unserialize: 4)
  the tree: one root, 0.5; secret base; reordered xy; subset 2 from cache; unset: {"kept":1,"dropped":2}
  typed: t {"warm":false} Typed property SubsetTyped::$late must not be accessed before initialization
copying: var_dump true, serialize true, __wakeup() calls 4 (unserialize: 4)
  the tree: one root, 0.5; secret base; reordered xy; subset 2 from cache; unset: {"kept":1,"dropped":2}
  typed: t {"warm":false} Typed property SubsetTyped::$late must not be accessed before initialization
stored: 0
borrowing Retyped: as unserialize() (TypeError)
borrowing Added: as unserialize() (restored)
borrowing Removed: as unserialize() (restored)
borrowing Swapped: as unserialize() (restored)
borrowing Hidden: as unserialize() (restored)
borrowing Widened: as unserialize() (restored)
copying Retyped: as unserialize() (TypeError)
copying Added: as unserialize() (restored)
copying Removed: as unserialize() (restored)
copying Swapped: as unserialize() (restored)
copying Hidden: as unserialize() (restored)
copying Widened: as unserialize() (restored)
