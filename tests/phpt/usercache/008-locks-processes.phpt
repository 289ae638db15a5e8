--TEST--
UserCache: a lock held by another process: lock() and unlock() are false, writes of the key wait for it, clear() and deletePool() are refused; it goes when its holder unlocks, ends its request, or is killed; a forked child holds none of its parent's locks
--EXTENSIONS--
pcntl
posix
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('locks');

/* Runs $child in a forked process; it and the parent talk over a socket. */
function fork_with(callable $child): array
{
    [$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($parent);
        $child($peer);
        exit(0);
    }
    fclose($peer);
    return [$pid, $parent];
}

echo "held by a child:\n";
$c->store('held', 'initial');
[$pid, $sock] = fork_with(function ($sock) use ($c) {
    $c->lock('held');
    fwrite($sock, 'L');
    fread($sock, 1);
    // The parent's store() has begun: it must wait for this one and the unlock.
    usleep(300000);
    $c->store('held', 'child');
    $c->unlock('held');
});
var_dump(fread($sock, 1));
var_dump($c->lock('held'), $c->unlock('held'), $c->clear(), Cache::deletePool('locks'), $c->has('held'));
fwrite($sock, 'G');
var_dump($c->store('held', 'parent'), $c->fetch('held'));
pcntl_waitpid($pid, $status);
var_dump($c->lock('held'), $c->unlock('held'), $c->clear());

echo "every write waits, and nothing is written before the lock goes:\n";
foreach (['add', 'increment', 'delete', 'storeMultiple', 'deleteMultiple'] as $op) {
    $c->store('guarded', 10);
    $c->store('free', 20);
    [$pid, $sock] = fork_with(function ($sock) use ($c) {
        $c->lock('guarded');
        fwrite($sock, 'L');
        fread($sock, 1);
        usleep(200000);
        fwrite($sock, $c->fetch('guarded') === 10 && $c->fetch('free') === 20 ? 'U' : 'C');
        $c->unlock('guarded');
    });
    fread($sock, 1);
    fwrite($sock, 'G');
    $r = match ($op) {
        'add' => $c->add('guarded', 1),
        'increment' => $c->increment('guarded'),
        'delete' => $c->delete('guarded'),
        'storeMultiple' => $c->storeMultiple(['free' => 21, 'guarded' => 11]),
        'deleteMultiple' => $c->deleteMultiple(['free', 'guarded']),
    };
    echo $op, ': ', var_export($r, true), ', untouched while held: ', fread($sock, 1), ', now: ',
        var_export($c->fetch('guarded', 'MISS'), true), ' ', var_export($c->fetch('free', 'MISS'), true), "\n";
    pcntl_waitpid($pid, $status);
}

echo "a holder that ends its request, or dies, leaves its lock:\n";
[$pid, $sock] = fork_with(fn ($sock) => $c->lock('ended'));
pcntl_waitpid($pid, $status);
[$pid, $sock] = fork_with(function ($sock) use ($c) {
    $c->lock('killed');
    posix_kill(posix_getpid(), SIGKILL);
});
pcntl_waitpid($pid, $status);
var_dump(pcntl_wifsignaled($status), $c->lock('ended'), $c->lock('killed'), $c->unlock('ended'), $c->unlock('killed'));

echo "a lease outlives its holder's request until it ends; clear() drops it:\n";
[$pid, $sock] = fork_with(fn ($sock) => fwrite($sock, $c->lock('leased', 2) ? 'L' : 'F'));
var_dump(fread($sock, 1));
pcntl_waitpid($pid, $status);
var_dump($c->lock('leased'), $c->clear(), $c->lock('leased'), $c->unlock('leased'));
[$pid, $sock] = fork_with(fn ($sock) => fwrite($sock, $c->lock('lease-ends', 1) ? 'L' : 'F'));
var_dump(fread($sock, 1));
pcntl_waitpid($pid, $status);
var_dump($c->lock('lease-ends'));
sleep(2);
var_dump($c->lock('lease-ends'), $c->unlock('lease-ends'));

echo "a lease that ran out is another's to take:\n";
var_dump($c->lock('stale', 1));
sleep(2);
[$pid, $sock] = fork_with(function ($sock) use ($c) {
    fwrite($sock, $c->lock('stale') ? 'L' : 'F');
    fread($sock, 1);
    $c->unlock('stale');
});
var_dump(fread($sock, 1), $c->lock('stale'), $c->lock('stale', 1), $c->unlock('stale'));
fwrite($sock, 'R');
pcntl_waitpid($pid, $status);
var_dump($c->lock('stale'), $c->unlock('stale'));

echo "a forked child holds none of its parent's locks:\n";
var_dump($c->lock('parents'));
[$pid, $sock] = fork_with(function ($sock) use ($c) {
    fwrite($sock, var_export([$c->unlock('parents'), $c->lock('parents'), $c->lock('childs')], true));
});
echo str_replace("\n", ' ', stream_get_contents($sock)), "\n";
pcntl_waitpid($pid, $status);
var_dump($c->unlock('parents'), $c->lock('childs'));
?>
--EXPECT--
held by a child:
string(1) "L"
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
string(6) "parent"
bool(true)
bool(true)
bool(true)
every write waits, and nothing is written before the lock goes:
add: false, untouched while held: U, now: 10 20
increment: 11, untouched while held: U, now: 11 20
delete: true, untouched while held: U, now: 'MISS' 20
storeMultiple: true, untouched while held: U, now: 11 21
deleteMultiple: true, untouched while held: U, now: 'MISS' 'MISS'
a holder that ends its request, or dies, leaves its lock:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
a lease outlives its holder's request until it ends; clear() drops it:
string(1) "L"
bool(false)
bool(true)
bool(true)
bool(true)
string(1) "L"
bool(false)
bool(true)
bool(true)
a lease that ran out is another's to take:
bool(true)
string(1) "L"
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
a forked child holds none of its parent's locks:
bool(true)
array (   0 => false,   1 => false,   2 => true, )
bool(true)
bool(true)
