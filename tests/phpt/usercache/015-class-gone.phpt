--TEST--
UserCache: a value holding an object whose class is gone is a miss (fetch()'s default, fetchMultiple()'s, remember() computes) and its entry goes; an autoloader's exception reaches the caller and keeps the entry; Resident\Cache still gives __PHP_Incomplete_Class
--FILE--
<?php
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
$segment = 'phpt-uc-gone-' . getmypid();
// Two processes over one named segment: one has the class, the other not.
$php = fn (string $code) => shell_exec(sprintf('%s -n -d extension=%s -d user_cache.enable_cli=1 -d resident.segment=%s -r %s 2>&1',
    escapeshellarg(PHP_BINARY), escapeshellarg($so), $segment, escapeshellarg($code)));
echo $php('final class Gone { public string $value = "stored"; }
$c = UserCache\Cache::getPool("gone");
foreach (["single", "nested", "multiple", "remembered", "autoloaded"] as $key) {
    echo $key, ": ", var_export($c->store($key, $key === "nested" ? ["deep" => [new Gone()]] : new Gone()), true), "\n";
}
echo "resident: ", var_export(Resident\Cache::pool("gone")->store("kept", new Gone()), true), "\n";');
echo $php('$c = UserCache\Cache::getPool("gone");
var_dump($c->fetch("single", "DEFAULT"), $c->has("single"));
var_dump($c->fetch("nested"), $c->has("nested"));
var_dump($c->fetchMultiple(["multiple", "absent"], "DEFAULT"), $c->has("multiple"));
var_dump($c->remember("remembered", fn () => "computed"), $c->fetch("remembered"));
spl_autoload_register(function (string $class) { throw new Exception("autoload of $class failed"); });
try {
    $c->fetch("autoloaded");
} catch (Exception $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
var_dump($c->has("autoloaded"));
spl_autoload_unregister(spl_autoload_functions()[0]);
echo get_class(Resident\Cache::pool("gone")->fetch("kept")), "\n";');
@unlink("/dev/shm/resident-$segment");
?>
--EXPECT--
single: true
nested: true
multiple: true
remembered: true
autoloaded: true
resident: true
string(7) "DEFAULT"
bool(false)
NULL
bool(false)
array(2) {
  ["multiple"]=>
  string(7) "DEFAULT"
  ["absent"]=>
  string(7) "DEFAULT"
}
bool(false)
string(8) "computed"
string(8) "computed"
caught: autoload of Gone failed
bool(true)
__PHP_Incomplete_Class
