--TEST--
RequestOverStatic lazy restore: a pending property whose record no longer fits its class throws when used, and the snapshot is dropped at the end of that request
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=on
--FILE--
<?php
$dir = sys_get_temp_dir() . '/ros-lazy-stale-' . getmypid();
mkdir($dir);
file_put_contents("$dir/Holder.php", '<?php
#[Resident\RequestOverStatic]
final class Holder { public static ?Box $box = null; }');
file_put_contents("$dir/Box.php", '<?php
final class Box { public ?Alpha $a = null; public int $n = 0; }');
// Each version of Alpha in a file of its own (OPcache, on in one pass, would
// serve a rewritten file as it was for a while); "Alpha" names the current one.
$alpha = function (string $type, string $default) use ($dir) {
    file_put_contents("$dir/Alpha-$type.php", "<?php\nfinal class Alpha { public function __construct(public $type \$x = $default) {} }");
    file_put_contents("$dir/Alpha", "Alpha-$type");
};

function request(callable $fn): void
{
    if (($pid = pcntl_fork()) === 0) {
        $fn();
        exit(0);
    }
    pcntl_waitpid($pid, $status);
}

$app = function () use ($dir) {
    spl_autoload_register(function ($class) use ($dir) {
        echo "  (autoload $class)\n";
        require $class === 'Alpha' ? "$dir/" . file_get_contents("$dir/Alpha") . '.php' : "$dir/$class.php";
    });
    if (Holder::$box === null) {
        echo "  defaults: building\n";
        $box = new Box;
        $box->a = new Alpha;
        $box->n = 7;
        Holder::$box = $box;
        return;
    }
    echo '  n = ', Holder::$box->n, "\n";
    try {
        $x = Holder::$box->a->x;
        echo '  a->x = ', var_export($x, true), "\n";
    } catch (Throwable $e) {
        echo '  ', get_class($e), ': ', $e->getMessage(), "\n";
        var_dump(Holder::$box);
    }
};

$alpha('string', "'text'");
echo "request 1\n";
request($app);
echo "request 2\n";
request($app);
echo "Alpha::\$x becomes an int\n";
$alpha('int', '42');
echo "request 3\n";
request($app);
echo "request 4\n";
request($app);

array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
request 1
  (autoload Holder)
  defaults: building
  (autoload Box)
  (autoload Alpha)
request 2
  (autoload Holder)
  (autoload Box)
  n = 7
  (autoload Alpha)
  a->x = 'text'
Alpha::$x becomes an int
request 3
  (autoload Holder)
  (autoload Box)
  n = 7
  (autoload Alpha)
  TypeError: Cannot assign string to property Alpha::$x of type int
object(Box)#4 (2) {
  ["a"]=>
  object(Alpha)#5 (0) {
    ["x"]=>
    uninitialized(int)
  }
  ["n"]=>
  int(7)
}
request 4
  (autoload Holder)
  defaults: building
  (autoload Box)
  (autoload Alpha)
