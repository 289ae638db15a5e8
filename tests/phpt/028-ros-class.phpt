--TEST--
RequestOverStatic, class scope: static properties and method statics survive the request; a read-only request publishes nothing
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Registry', <<<'PHP'
#[Resident\RequestOverStatic]
class Registry {
    public static array $routes = [];
    protected static int $built = 0;
    private static ?Node $tree = null;
    public static string $untyped = 'default';
    public static function build(int $n): void {
        self::$built++;
        for ($i = 0; $i < $n; $i++) self::$routes["/r$i"] = ['handler' => "h$i", 'methods' => ['GET']];
        self::$tree = new Node('root', [new Node('a'), new Node('b')]);
    }
    public static function built(): int { return self::$built; }
    public static function tree(): ?Node { return self::$tree; }
    public static function counter(): int { static $calls = 0; static $log = []; $log[] = $calls; return ++$calls; }
}
class Node { public function __construct(public string $name, public array $children = []) {} }
PHP);

echo "1st request\n";
request(function () use ($file) {
    require $file;
    var_dump(Registry::$routes === [], Registry::built(), Registry::tree(), Registry::counter());
    Registry::build(3);
    Registry::$untyped = 'changed';
    Registry::counter();
});
var_dump(ros_status()['snapshots'], $published = ros_status()['publishes']);

echo "2nd request: restored, then read only\n";
request(function () use ($file) {
    require $file;
    var_dump(count(Registry::$routes), Registry::$routes['/r2'], Registry::built());
    var_dump(Registry::tree()->name, Registry::tree()->children[1]->name, Registry::$untyped);
});
var_dump(ros_status()['publishes'] === $published);

echo "3rd request: a method's statics change, an object changes inside\n";
request(function () use ($file) {
    require $file;
    var_dump(Registry::counter());
    Registry::tree()->children[] = new Node('c');
});
var_dump(ros_status()['publishes'] === $published + 1);

echo "4th request\n";
request(function () use ($file) {
    require $file;
    var_dump(Registry::counter(), count(Registry::tree()->children), Registry::tree()->children[2]->name);
});
?>
--EXPECT--
1st request
bool(true)
int(0)
NULL
int(1)
int(1)
int(1)
2nd request: restored, then read only
int(3)
array(2) {
  ["handler"]=>
  string(2) "h2"
  ["methods"]=>
  array(1) {
    [0]=>
    string(3) "GET"
  }
}
int(1)
string(4) "root"
string(1) "b"
string(7) "changed"
bool(true)
3rd request: a method's statics change, an object changes inside
int(3)
bool(true)
4th request
int(4)
int(3)
string(1) "c"
