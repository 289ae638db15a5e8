--TEST--
UserCache: a lease is cut to user_cache.lock_lease_max; a write waits 10 s at most for another's lock, then is false and writes nothing (this test takes 12 s)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
user_cache.lock_lease_max=1
--FILE--
<?php
$c = UserCache\Cache::getPool('waits');
var_dump(ini_get('user_cache.lock_lease_max'), $c->lock('clamped', PHP_INT_MAX));
[$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
if (($pid = pcntl_fork()) === 0) {
    $before = $c->lock('clamped');
    sleep(2);
    fwrite($peer, var_export([$before, $c->lock('clamped'), $c->unlock('clamped')], true));
    exit(0);
}
fclose($peer);
echo str_replace("\n", ' ', stream_get_contents($parent)), "\n";
pcntl_waitpid($pid, $status);

$c->store('guarded', 'before');
[$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
if (($pid = pcntl_fork()) === 0) {
    fclose($parent);
    $c->lock('guarded');
    fwrite($peer, 'L');
    fread($peer, 1);
    exit(0);
}
fclose($peer);
fread($parent, 1);
$start = microtime(true);
var_dump($c->store('guarded', 'after'));
$waited = microtime(true) - $start;
var_dump($waited >= 10, $c->fetch('guarded'));
fwrite($parent, 'D');
pcntl_waitpid($pid, $status);
var_dump($c->store('guarded', 'after'), $c->fetch('guarded'));
?>
--EXPECT--
string(1) "1"
bool(true)
array (   0 => false,   1 => true,   2 => true, )
bool(false)
bool(true)
string(6) "before"
bool(true)
string(5) "after"
