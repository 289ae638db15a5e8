--TEST--
UserCache and Resident\Cache: fetched strings used as regex patterns work, and a process whose PCRE cache holds them as keys shuts down cleanly (PCRE frees its cache after the segment is unmapped: a key pointing into the segment would crash there)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$pid = pcntl_fork();
if ($pid === 0) {
    $c = UserCache\Cache::getPool('pcre');
    $c->store('routes', ['user' => '#^/user/(\d+)$#', 'post' => '#^/post/(\w+)$#']);
    $routes = $c->fetch('routes');
    $out = [preg_match($routes['user'], '/user/42', $m), $m[1], preg_match($routes['post'], '/post/abc', $m), $m[1]];
    $c->store('pattern', '#^[a-z]+$#');
    $out[] = preg_match($c->fetch('pattern'), 'abc');
    $r = Resident\Cache::pool('pcre');
    $r->store('pattern', '#^[0-9]+$#');
    $out[] = preg_match($r->fetch('pattern'), '123');
    $r->store('patterns', ['#^x+$#', '#^y+$#']);
    $out[] = preg_replace($r->fetch('patterns'), ['X', 'Y'], 'xx');
    echo json_encode($out), "\n";
    exit(0);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wifexited($status), pcntl_wexitstatus($status));
?>
--EXPECT--
[1,"42",1,"abc",1,1,"X"]
bool(true)
int(0)
