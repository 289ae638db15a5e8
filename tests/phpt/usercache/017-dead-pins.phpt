--TEST--
UserCache: CacheStatus counts the reader slots in use (a borrowing process each) and those of dead processes reclaimed; a process killed while it borrowed pins nothing once its slot is reclaimed (getDeadPinsStripped() is 0: a dead slot is reclaimed whole)
--EXTENSIONS--
pcntl
posix
--INI--
user_cache.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
$c = UserCache\Cache::getPool('dead-pins');
$c->store('held', str_repeat('h', 5000));
$before = UserCache\Cache::getStatus();
[$parent, $peer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
if (($pid = pcntl_fork()) === 0) {
    fclose($parent);
    // Borrows the value: its read section stays open until it is killed.
    $v = $c->fetch('held');
    fwrite($peer, 'R');
    sleep(60);
    exit(0);
}
fclose($peer);
fread($parent, 1);
$during = UserCache\Cache::getStatus();
posix_kill($pid, SIGKILL);
pcntl_waitpid($pid, $status);
// Replacing the value retires the old one; reclaiming it finds the dead slot.
for ($i = 0; $i < 20; $i++) {
    $c->store('held', str_repeat((string) $i, 5000));
}
$after = UserCache\Cache::getStatus();
var_dump($before->getGraphPinSlotsInUse(), $during->getGraphPinSlotsInUse(), $after->getGraphPinSlotsInUse());
var_dump($before->getDeadPinOwnersReclaimed(), $after->getDeadPinOwnersReclaimed(), $after->getDeadPinsStripped(), $after->getWastedMemory());
?>
--EXPECT--
int(1)
int(2)
int(1)
int(0)
int(1)
int(0)
int(0)
