--TEST--
resident.lazy_objects=1: an autoloader that runs while a shell is filled and writes the shell's properties (one left pending, the one being made) keeps what it wrote, releases nothing twice and leaks nothing; the shell stays usable (var_dump, serialize, a later read); the other properties come back as stored
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.lazy_objects=1
--FILE--
<?php
$dir = sys_get_temp_dir() . '/resident-181-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/Root.php", '<?php class Root { public $a; public $b; public $c; public int $n = 1; }');
foreach (['ChildA', 'ChildB', 'ChildC'] as $class) {
    file_put_contents("$dir/$class.php", "<?php class $class { public string \$name = '$class'; }");
}
$c = Resident\Cache::pool('lazy-autoloader-writes');
$pid = pcntl_fork();
if ($pid === 0) {
    foreach (['Root', 'ChildA', 'ChildB', 'ChildC'] as $class) {
        require "$dir/$class.php";
    }
    $r = new Root();
    [$r->a, $r->b, $r->c, $r->n] = [new ChildA(), new ChildB(), new ChildC(), 7];
    $c->store('root', $r);
    exit(0);
}
pcntl_waitpid($pid, $status);
spl_autoload_register(function (string $class) use ($dir) {
    echo "autoload $class\n";
    if ($class === 'ChildA') {
        // The shell being filled is reachable: its pending property b, and
        // a, whose value is being made.
        $GLOBALS['root']->b = str_repeat('b', 3) . ' by the autoloader';
        $GLOBALS['root']->a = str_repeat('a', 3) . ' by the autoloader';
    }
    require "$dir/$class.php";
});
$root = $c->fetch('root');
var_dump($root->a, $root->n);
var_dump($root);
echo serialize($root), "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
autoload Root
autoload ChildA
string(21) "aaa by the autoloader"
int(7)
autoload ChildC
object(Root)#3 (4) {
  ["a"]=>
  string(21) "aaa by the autoloader"
  ["b"]=>
  string(21) "bbb by the autoloader"
  ["c"]=>
  object(ChildC)#5 (1) {
    ["name"]=>
    string(6) "ChildC"
  }
  ["n"]=>
  int(7)
}
O:4:"Root":4:{s:1:"a";s:21:"aaa by the autoloader";s:1:"b";s:21:"bbb by the autoloader";s:1:"c";O:6:"ChildC":1:{s:4:"name";s:6:"ChildC";}s:1:"n";i:7;}
