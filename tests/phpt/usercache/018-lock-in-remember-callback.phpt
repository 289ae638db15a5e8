--TEST--
UserCache: lock() of the key inside remember()'s callback makes remember()'s lock the caller's: it stays held after remember() returns, until unlock() or the request's end (a lease given then does not apply: remember() took the lock without one)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;
$c = Cache::getPool('remember-lock');

function other_process_takes(string $key): bool
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        exit(Cache::getPool('remember-lock')->lock($key) ? 1 : 0);
    }
    pcntl_waitpid($pid, $status);
    return pcntl_wexitstatus($status) === 1;
}

var_dump($c->remember('k', function (string $key) use ($c) {
    var_dump($c->lock($key));
    return 'computed';
}));
echo "held after remember(): ", var_export(!other_process_takes('k'), true), "\n";
var_dump($c->unlock('k'), $c->unlock('k'));
echo "taken by another once unlocked: ", var_export(other_process_takes('k'), true), "\n";

echo "without lock() in the callback, remember() releases its lock:\n";
var_dump($c->remember('plain', fn () => 1), $c->unlock('plain'), other_process_takes('plain'));

echo "it goes with the request that took it, a lease given in the callback or not:\n";
$pid = pcntl_fork();
if ($pid === 0) {
    $p = Cache::getPool('remember-lock');
    $p->remember('leased', fn ($k) => $p->lock($k, 30) ? 'a' : 'x');
    $p->remember('unleased', fn ($k) => $p->lock($k) ? 'b' : 'x');
    exit(0);
}
pcntl_waitpid($pid, $status);
var_dump($c->fetch('leased'), $c->lock('leased'), $c->fetch('unleased'), $c->lock('unleased'), $c->unlock('unleased'));
?>
--EXPECT--
bool(true)
string(8) "computed"
held after remember(): true
bool(true)
bool(false)
taken by another once unlocked: true
without lock() in the callback, remember() releases its lock:
int(1)
bool(false)
bool(true)
it goes with the request that took it, a lease given in the callback or not:
string(1) "a"
bool(true)
string(1) "b"
bool(true)
bool(true)
