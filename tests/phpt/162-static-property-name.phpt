--TEST--
A stored property whose name the class now declares static comes back as unserialize() brings it back: a dynamic property under the declared name, without the deprecation of dynamic properties (it was given one); the static property is untouched
--INI--
resident.enable_cli=1
--FILE--
<?php
$dir = sys_get_temp_dir() . '/resident-162-' . getmypid();
mkdir($dir);
// Stored while $mode is an instance property, read once it is static:
// the class changed between a store and a fetch (a deploy).
file_put_contents("$dir/v1.php", '<?php class Settings { public $mode = "fast"; protected $level = 3; public $name = "a"; }');
file_put_contents("$dir/v2.php", '<?php class Settings { public static $mode = "default"; protected static $level = 0; public $name = "b"; }');
$c = Resident\Cache::pool('static-name');
if (pcntl_fork() === 0) {
    require "$dir/v1.php";
    $c->store('s', new Settings());
    exit(0);
}
pcntl_wait($status);
require "$dir/v2.php";
$fetched = $c->fetch('s');
var_dump($fetched);
var_dump(Settings::$mode);
var_dump($fetched == unserialize('O:8:"Settings":3:{s:4:"mode";s:4:"fast";s:8:"' . "\0*\0" . 'level";i:3;s:4:"name";s:1:"a";}'));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXTENSIONS--
pcntl
--EXPECT--
object(Settings)#2 (3) {
  ["name"]=>
  string(1) "a"
  ["mode"]=>
  string(4) "fast"
  ["level":protected]=>
  int(3)
}
string(7) "default"
bool(true)
