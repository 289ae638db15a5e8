--TEST--
UserCache: a request whose leased lock ran out and was taken by another process holds nothing: lock() (with or without a lease) is false, and its storeMultiple() and deleteMultiple() wait for the new holder like anyone else's, leaving the batch's other keys untouched meanwhile (this test takes 5 s)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('stale-lease');
foreach (['storeMultiple', 'deleteMultiple'] as $op) {
    echo "$op:\n";
    $c->store('guarded', 10);
    $c->store('other', 20);
    var_dump($c->lock('guarded', 1));
    usleep(1100000);
    [$parent, $child] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($parent);
        $took = $c->lock('guarded');
        fwrite($child, $took ? 'L' : 'F');
        fread($child, 1);
        usleep(300000);
        // What the waiting batch must not have written yet.
        $untouched = $c->fetch('guarded') === 10 && $c->fetch('other') === 20;
        $c->unlock('guarded');
        exit($untouched ? 0 : 1);
    }
    fclose($child);
    var_dump(fread($parent, 1));
    var_dump($c->lock('guarded'), $c->lock('guarded', 1));
    fwrite($parent, 'G');
    var_dump($op === 'storeMultiple' ? $c->storeMultiple(['other' => 21, 'guarded' => 11]) : $c->deleteMultiple(['other', 'guarded']));
    pcntl_waitpid($pid, $status);
    var_dump(pcntl_wexitstatus($status), $c->fetch('guarded', 'MISS'), $c->fetch('other', 'MISS'));
}
?>
--EXPECT--
storeMultiple:
bool(true)
string(1) "L"
bool(false)
bool(false)
bool(true)
int(0)
int(11)
int(21)
deleteMultiple:
bool(true)
string(1) "L"
bool(false)
bool(false)
bool(true)
int(0)
string(4) "MISS"
string(4) "MISS"
