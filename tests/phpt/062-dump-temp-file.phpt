--TEST--
dump(): the file is written beside the target under a name of its own, created exclusively with mode 0600; a file or link planted at a predictable name receives nothing
--INI--
resident.enable_cli=1
--FILE--
<?php
// A shared directory, as /tmp is: anyone may create files in it.
$dir = sys_get_temp_dir() . '/resident-062-' . getmypid();
mkdir($dir);
chmod($dir, 01777);
$file = "$dir/cache.dump";
$victim = "$dir/victim";
umask(0);
Resident\Cache::pool('p')->store('secret', 'only for the server');

echo "a file planted where the dump used to write first:\n";
$planted = "$file.tmp." . getmypid();
file_put_contents($planted, 'planted');
chmod($planted, 0666);
var_dump(Resident\Cache::dump($file));
clearstatcache();
var_dump(file_get_contents($planted));
printf("the dump: mode %o\n", fileperms($file) & 0777);

echo "a symbolic link planted there:\n";
unlink($planted);
file_put_contents($victim, 'victim');
symlink($victim, $planted);
var_dump(Resident\Cache::dump($file), file_get_contents($victim));

echo "the target itself a symbolic link: the link is replaced, not followed:\n";
unlink($file);
symlink($victim, $file);
var_dump(Resident\Cache::dump($file), is_link($file), file_get_contents($victim));

echo "left in the directory:\n";
$left = array_map('basename', glob("$dir/*"));
sort($left);
echo str_replace((string)getmypid(), 'PID', implode("\n", $left)), "\n";

echo "the dump restores:\n";
require __DIR__ . '/child.inc';
echo resident_child('var_dump(Resident\Cache::status()["restored_at_start"], Resident\Cache::pool("p")->fetch("secret"));',
    ['resident.restore_on_start' => $file, 'resident.memory' => ini_get('resident.memory')]);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
a file planted where the dump used to write first:
int(1)
string(7) "planted"
the dump: mode 600
a symbolic link planted there:
int(1)
string(6) "victim"
the target itself a symbolic link: the link is replaced, not followed:
int(1)
bool(false)
string(6) "victim"
left in the directory:
cache.dump
cache.dump.tmp.PID
victim
the dump restores:
int(1)
string(19) "only for the server"
