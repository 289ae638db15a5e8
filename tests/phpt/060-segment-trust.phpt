--TEST--
resident.segment: a segment file another user owns, one other users can read or write, or a symbolic link is refused, and what it holds is never served
--SKIPIF--
<?php if (trim((string)shell_exec('id -u')) !== '0') die('skip needs root, to give a file to another user'); ?>
--FILE--
<?php
require __DIR__ . '/child.inc';
$name = 'phpt-060-' . getmypid();
$file = "/dev/shm/resident-$name";
@unlink($file);
$attach = function () use ($name): void {
    $out = resident_child('$s = Resident\Cache::status(); var_dump($s["available"]); echo $s["reason"], "\n"; var_dump(Resident\Cache::pool("p")->fetch("k"));',
        ['resident.segment' => $name]);
    echo str_replace($name, 'NAME', $out);
};

// A real segment holding a value, as another local user would plant it.
echo resident_child('var_dump(Resident\Cache::pool("p")->store("k", "planted"));', ['resident.segment' => $name]);

echo "readable by other users:\n";
chmod($file, 0644);
$attach();
echo "writable by its group:\n";
chmod($file, 0620);
$attach();
echo "owned by another user:\n";
chmod($file, 0600);
chown($file, 65534);
$attach();
echo "a symbolic link to a segment of ours:\n";
chown($file, 0);
rename($file, "$file-real");
symlink("$file-real", $file);
$attach();
clearstatcache();
printf("the link is still there: %s; its target: %o, owner %d\n", json_encode(is_link($file)), fileperms("$file-real") & 0777, fileowner("$file-real"));
unlink($file);
unlink("$file-real");
?>
--EXPECT--
bool(true)
readable by other users:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 0 with mode 0644; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600) in Unknown on line 0
bool(false)
cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 0 with mode 0644; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600)
NULL
writable by its group:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 0 with mode 0620; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600) in Unknown on line 0
bool(false)
cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 0 with mode 0620; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600)
NULL
owned by another user:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 65534 with mode 0600; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600) in Unknown on line 0
bool(false)
cannot create the segment: cannot use /dev/shm/resident-NAME: it is a file owned by uid 65534 with mode 0600; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600)
NULL
a symbolic link to a segment of ours:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use /dev/shm/resident-NAME: it is a symbolic link; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600) in Unknown on line 0
bool(false)
cannot create the segment: cannot use /dev/shm/resident-NAME: it is a symbolic link; a segment must be a regular file owned by this process's user (uid 0) that no other user can access (mode 0600)
NULL
the link is still there: true; its target: 600, owner 0
