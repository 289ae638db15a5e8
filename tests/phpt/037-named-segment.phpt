--TEST--
resident.segment: a named segment outlives its creator and is shared by unrelated processes; bad names and foreign files are refused
--INI--
resident.enable_cli=1
--FILE--
<?php
$name = 'phpt-' . getmypid();
$file = "/dev/shm/resident-$name";
// Unrelated processes (not forks): the same PHP and extension, by path.
require __DIR__ . '/child.inc';
$php = fn (string $code, string $segment = '') => resident_child($code, ['resident.segment' => $segment ?: $name]);

echo $php('var_dump(Resident\Cache::pool("p")->store("k", ["a" => [1, 2], "s" => str_repeat("x", 3)]), Resident\Cache::status()["segment"]);');
printf("file: %o\n", fileperms($file) & 0777);
echo $php('var_dump(Resident\Cache::pool("p")->fetch("k"));');
echo $php('var_dump(Resident\Cache::pool("p")->increment("n"), Resident\Cache::pool("p")->increment("n"));');
echo $php('var_dump(Resident\Cache::pool("p")->fetch("n"), count(iterator_to_array(Resident\Cache::pool("p")->keys())));');
unlink($file);

echo "bad names:\n";
echo $php('var_dump(Resident\Cache::status()["available"]);', '../escape');
echo $php('var_dump(Resident\Cache::status()["available"]);', 'a b');
echo "a file that is not a segment:\n";
file_put_contents($file, str_repeat("junk", 1000));
chmod($file, 0600);
echo $php('var_dump(Resident\Cache::status()["reason"]);');
var_dump(filesize($file));
unlink($file);
?>
--EXPECTF--
bool(true)
string(%d) "/dev/shm/resident-phpt-%d"
file: 600
array(2) {
  ["a"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["s"]=>
  string(3) "xxx"
}
int(1)
int(2)
int(2)
int(2)
bad names:

Warning: PHP Startup: Resident is disabled: resident.segment must be a name or an absolute path, "../escape" given in Unknown on line 0
bool(false)

Warning: PHP Startup: Resident is disabled: resident.segment names may only hold letters, digits, '-', '_' and '.', "a b" given in Unknown on line 0
bool(false)
a file that is not a segment:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use /dev/shm/resident-phpt-%d: it is not a Resident segment (left as it is) in Unknown on line 0
string(%d) "cannot create the segment: cannot use /dev/shm/resident-phpt-%d: it is not a Resident segment (left as it is)"
int(4000)
