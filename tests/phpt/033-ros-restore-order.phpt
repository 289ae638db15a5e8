--TEST--
RequestOverStatic restores before any code reads the statics: values needing autoloaded classes, classes in one file, runtime-declared classes, subclasses, aliases
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$dir = dirname(class_file('Item', <<<'PHP'
echo "  (autoloading Item)\n";
final class Item { public function __construct(public string $label, public ?Item $next = null) {} }
PHP));
class_file('Holder', <<<'PHP'
echo "  (autoloading Holder)\n";
#[Resident\RequestOverStatic]
class Holder { public static ?Item $item = null; public static array $list = []; }
PHP);
class_file('Pair', <<<'PHP'
#[Resident\RequestOverStatic]
class First { public static ?Second $second = null; }
class Second { public function __construct(public int $v = 0) {} }
PHP);
class_file('Tree', <<<'PHP'
#[Resident\RequestOverStatic]
class Leaf extends Base { public static $own = 0; }
#[Resident\RequestOverStatic]
class Base { public static $shared = 0; }
class_alias('Leaf', 'LeafAlias');
if (!class_exists('Cond', false)) {
    #[Resident\RequestOverStatic]
    class Cond { public static $n = 0; }
}
PHP);

// Holder's statics are restored once its file is compiled, before the file
// runs: Item is autoloaded first.
$request = function (bool $write) use ($dir) {
    return function () use ($dir, $write) {
        spl_autoload_register(function ($class) use ($dir) {
            if (is_file("$dir/$class.php")) require "$dir/$class.php";
        });
        echo "reading Holder\n";
        var_dump(Holder::$item?->next?->label, count(Holder::$list));
        require "$dir/Pair.php";
        var_dump(First::$second?->v);
        require "$dir/Tree.php";
        var_dump(Leaf::$own, Base::$shared, LeafAlias::$own, Cond::$n);
        if ($write) {
            Holder::$item = new Item('a', new Item('b'));
            Holder::$list = [Holder::$item, Holder::$item->next];
            First::$second = new Second(42);
            Leaf::$own = 1; Base::$shared = 2; Cond::$n = 3;
        }
    };
};
echo "1st request\n";
request($request(true));
echo "2nd request\n";
request($request(false));
?>
--EXPECT--
1st request
reading Holder
  (autoloading Holder)
NULL
int(0)
NULL
int(0)
int(0)
int(0)
int(0)
  (autoloading Item)
2nd request
reading Holder
  (autoloading Item)
  (autoloading Holder)
string(1) "b"
int(2)
int(42)
int(1)
int(2)
int(1)
int(3)
