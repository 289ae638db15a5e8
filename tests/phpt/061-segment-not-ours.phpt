--TEST--
resident.segment naming a file that is not a Resident segment, or a segment of another user, leaves it as it is and says why
--SKIPIF--
<?php if (trim((string)shell_exec('id -u')) !== '0') die('skip needs root, to give a file to another user'); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
$file = sys_get_temp_dir() . '/resident-061-' . getmypid();
$attach = function () use ($file): void {
    $out = resident_child('$s = Resident\Cache::status(); var_dump($s["available"]); echo $s["reason"], "\n";', ['resident.segment' => $file]);
    echo str_replace($file, 'FILE', $out);
};

echo "a file of ours, 0600, with content:\n";
file_put_contents($file, "precious data\n");
chmod($file, 0600);
$attach();
clearstatcache();
var_dump(file_get_contents($file), fileperms($file) & 0777);
unlink($file);

echo "a segment of another user:\n";
echo resident_child('var_dump(Resident\Cache::pool("p")->store("k", "theirs"));', ['resident.segment' => $file]);
chown($file, 65534);
$before = md5_file($file);
$attach();
clearstatcache();
var_dump(fileowner($file), md5_file($file) === $before);
unlink($file);
?>
--EXPECT--
a file of ours, 0600, with content:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use FILE: it is not a Resident segment (left as it is) in Unknown on line 0
bool(false)
cannot create the segment: cannot use FILE: it is not a Resident segment (left as it is)
string(14) "precious data
"
int(384)
a segment of another user:
bool(true)

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use FILE: it is a file owned by uid 65534 with mode 0600; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600) in Unknown on line 0
bool(false)
cannot create the segment: cannot use FILE: it is a file owned by uid 65534 with mode 0600; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600)
int(65534)
bool(true)
