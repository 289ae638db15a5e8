--TEST--
restore() and resident.restore_on_start load a dump only from a regular file of this process's user that no other user can write
--EXTENSIONS--
posix
--SKIPIF--
<?php if (posix_geteuid() !== 0) die('skip needs root to give a file to another user'); ?>
--INI--
resident.enable_cli=1
--FILE--
<?php
$dir = sys_get_temp_dir() . '/resident-trust-' . getmypid();
@mkdir($dir, 0700);
$dump = "$dir/app.dump";
$c = Resident\Cache::pool('app');
$c->store('k', 'from the dump');
var_dump(Resident\Cache::dump($dump));
$c->clear();
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
$show = fn (string $s) => preg_replace(['/uid \d+/', '#' . preg_quote($dir, '#') . '#', '/^\[[^]]*\] /m'], ['uid N', 'DIR', ''], $s);
foreach (['0666 (others may write)' => fn () => chmod($dump, 0666), '0620 (its group may write)' => fn () => chmod($dump, 0620),
          'owned by another user' => fn () => chmod($dump, 0600) && chown($dump, 65534),
          'a directory' => fn () => rename($dump, "$dump.file") && mkdir($dump),
          '0644, ours (others may read)' => fn () => rmdir($dump) && rename("$dump.file", $dump) && chown($dump, posix_geteuid()) && chmod($dump, 0644)] as $case => $make) {
    $make();
    echo "$case:\n";
    set_error_handler(function (int $no, string $msg) use ($show) { echo '  restore(): ', $show($msg), "\n"; return true; });
    $restored = Resident\Cache::restore($dump);
    echo '  restored: ', var_export($restored, true), "\n";
    restore_error_handler();
    $c->clear();
    $out = shell_exec(sprintf('%s -n -d extension=%s -d resident.enable_cli=1 -d resident.restore_on_start=%s -d display_startup_errors=0 -d log_errors=1 -d error_log=%s -r %s 2>/dev/null',
        escapeshellarg(PHP_BINARY), escapeshellarg($so), escapeshellarg($dump), escapeshellarg("$dir/startup.log"),
        escapeshellarg('var_dump(Resident\Cache::pool("app")->fetch("k"));')));
    echo '  restore_on_start: ', $show(trim(@file_get_contents("$dir/startup.log") . $out)), "\n";
    @unlink("$dir/startup.log");
}
exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
int(1)
0666 (others may write):
  restore(): Resident\Cache::restore(): DIR/app.dump is refused: it is a file owned by uid N with mode 0666; a dump must be a regular file owned by this process's user (uid N) that no other user can write
  restored: false
  restore_on_start: PHP Warning:  PHP Startup: Resident: resident.restore_on_start: DIR/app.dump is refused: it is a file owned by uid N with mode 0666; a dump must be a regular file owned by this process's user (uid N) that no other user can write; starting empty in Unknown on line 0
NULL
0620 (its group may write):
  restore(): Resident\Cache::restore(): DIR/app.dump is refused: it is a file owned by uid N with mode 0620; a dump must be a regular file owned by this process's user (uid N) that no other user can write
  restored: false
  restore_on_start: PHP Warning:  PHP Startup: Resident: resident.restore_on_start: DIR/app.dump is refused: it is a file owned by uid N with mode 0620; a dump must be a regular file owned by this process's user (uid N) that no other user can write; starting empty in Unknown on line 0
NULL
owned by another user:
  restore(): Resident\Cache::restore(): DIR/app.dump is refused: it is a file owned by uid N with mode 0600; a dump must be a regular file owned by this process's user (uid N) that no other user can write
  restored: false
  restore_on_start: PHP Warning:  PHP Startup: Resident: resident.restore_on_start: DIR/app.dump is refused: it is a file owned by uid N with mode 0600; a dump must be a regular file owned by this process's user (uid N) that no other user can write; starting empty in Unknown on line 0
NULL
a directory:
  restore(): Resident\Cache::restore(): DIR/app.dump is refused: it is not a regular file owned by uid N with mode 0755; a dump must be a regular file owned by this process's user (uid N) that no other user can write
  restored: false
  restore_on_start: PHP Warning:  PHP Startup: Resident: resident.restore_on_start: DIR/app.dump is refused: it is not a regular file owned by uid N with mode 0755; a dump must be a regular file owned by this process's user (uid N) that no other user can write; starting empty in Unknown on line 0
NULL
0644, ours (others may read):
  restored: 1
  restore_on_start: string(13) "from the dump"
