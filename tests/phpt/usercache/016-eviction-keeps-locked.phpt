--TEST--
UserCache: eviction (lru, and clear's wipes) passes over a value whose key is locked, in this process or another; once unlocked it is evicted as any other
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
user_cache.shm_size=2M
--FILE--
<?php
$c = UserCache\Cache::getPool('evict-locked');
$blob = str_repeat('x', 8000);
/* Twice the segment through the pool: every old key is a victim. */
function churn(UserCache\Cache $c, string $blob, string $prefix): void
{
    for ($i = 0; $i < 500; $i++) {
        $c->store("$prefix$i", $blob);
    }
}
for ($i = 0; $i < 100; $i++) {
    $c->store("old$i", $blob);
}
var_dump($c->lock('old3'));
// Another process holds old5's lock while this one churns.
[$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
if (($pid = pcntl_fork()) === 0) {
    fclose($parent);
    fwrite($peer, $c->lock('old5') ? 'L' : 'F');
    fread($peer, 1);
    exit(0);
}
fclose($peer);
echo fread($parent, 1), "\n";
churn($c, $blob, 'new');
$s = UserCache\Cache::getStatus();
var_dump($s->getEvictionCount() > 0, $c->has('old3'), $c->has('old5'), $c->has('old2'), $c->has('old4'));
fwrite($parent, 'D');
pcntl_waitpid($pid, $status);
var_dump($c->unlock('old3'));
churn($c, $blob, 'newer');
var_dump($c->has('old3'), $c->has('old5'));

echo "eviction_policy=clear:\n";
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
echo shell_exec(sprintf('%s -n -d extension=%s -d user_cache.enable_cli=1 -d user_cache.shm_size=2M -d user_cache.eviction_policy=clear -r %s 2>&1',
    escapeshellarg(PHP_BINARY), escapeshellarg($so), escapeshellarg('$c = UserCache\Cache::getPool("wiped");
$c->store("kept", "locked"); $c->store("gone", "not locked"); $c->lock("kept");
for ($i = 0; $i < 500; $i++) { $c->store("k$i", str_repeat("x", 8000)); }
var_dump(UserCache\Cache::getStatus()->getExpungeCount() > 0, $c->fetch("kept"), $c->has("gone"));')));
?>
--EXPECT--
bool(true)
L
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
eviction_policy=clear:
bool(true)
string(6) "locked"
bool(false)
