--TEST--
remember(): a waiter in another PID namespace (a container sharing /dev/shm) sees the holder of the compute lock alive and waits for its value instead of computing again; a holder that dies is still noticed at once
--SKIPIF--
<?php
exec('unshare --pid --fork true 2>&1', $out, $rc);
if ($rc !== 0) die('skip unshare --pid is not allowed here: ' . implode(' ', $out));
?>
--INI--
resident.enable_cli=1
--FILE--
<?php
$name = 'phpt-pidns-' . getmypid();
$dir = sys_get_temp_dir() . "/$name";
@mkdir($dir);
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
/* A PHP process on the named segment, optionally in a PID namespace of its own. */
$php = function (string $code, bool $ownNamespace = false, bool $background = false) use ($so, $name, $dir) {
    // exec: a background process is PHP itself, not a shell in front of it.
    $cmd = sprintf('exec %s %s -n -d extension=%s -d resident.enable_cli=1 -d resident.segment=%s -r %s',
        $ownNamespace ? 'unshare --pid --fork' : '', escapeshellarg(PHP_BINARY), escapeshellarg($so), $name,
        escapeshellarg('$dir = ' . var_export($dir, true) . ';' . $code));
    if ($background) {
        return proc_open($cmd, [1 => ['file', "$dir/holder.out", 'w'], 2 => ['file', "$dir/holder.out", 'a']], $pipes);
    }
    return shell_exec("$cmd 2>&1");
};
$compute = '$compute = function () use ($dir, $who) {
    file_put_contents("$dir/computed", "$who\n", FILE_APPEND);
    touch("$dir/started");
    usleep($who === "holder" ? 1500000 : 0);
    return "computed by $who";
};';

// The holder computes for 1.5 s; the waiter asks meanwhile, from another
// PID namespace, where the holder's pid means nothing.
$holder = $php('$who = "holder";' . $compute . 'echo Resident\Cache::pool("p")->remember("k", $compute), "\n";', false, true);
for ($i = 0; $i < 200 && !file_exists("$dir/started"); $i++) {
    usleep(10000);
}
echo "waiter: ", $php('$who = "waiter";' . $compute . 'echo Resident\Cache::pool("p")->remember("k", $compute), ", pid ", getmypid(), "\n";', true);
proc_close($holder);
echo "holder: ", file_get_contents("$dir/holder.out");
echo "computed by: ", str_replace("\n", " ", file_get_contents("$dir/computed")), "\n";

// A holder killed while computing: the waiter, in its own namespace, takes
// the lock over at once, not after the 30 s lease.
unlink("$dir/started");
unlink("$dir/computed");
$holder = $php('$who = "holder";' . $compute . 'Resident\Cache::pool("p")->remember("dies", function () use ($dir) { touch("$dir/started"); sleep(60); });', false, true);
for ($i = 0; $i < 200 && !file_exists("$dir/started"); $i++) {
    usleep(10000);
}
proc_terminate($holder, 9);
proc_close($holder);
$t = microtime(true);
echo "after the holder was killed: ", $php('$who = "waiter";' . $compute . 'echo Resident\Cache::pool("p")->remember("dies", $compute), "\n";', true);
echo microtime(true) - $t < 10 ? "at once\n" : "after the lease\n";
@unlink("/dev/shm/resident-$name");
exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
waiter: computed by holder, pid 1
holder: computed by holder
computed by: holder 
after the holder was killed: computed by waiter
at once
