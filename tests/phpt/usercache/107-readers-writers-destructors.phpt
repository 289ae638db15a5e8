--TEST--
UserCache: keys another process wrote read exactly (fetch, has, misses, fetchMultiple) while two processes keep writing; destructors may write to the pool when a store replaces or a delete drops a value still held, when the cycle collector runs inside a fetch, and when it throws inside fetchMultiple()
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
use UserCache\Cache;

function value_of(int $p, int $k): mixed {
    return match ($p % 3) {
        0 => ['p' => $p, 'k' => $k, 'f' => $k / 4],
        1 => str_repeat("v$p:$k;", 20),
        default => $k % 2 ? $k * 1.5 : $p * 1000 + $k,
    };
}
Cache::getPool('init')->store('init', true);
if (($pid = pcntl_fork()) === 0) {
    for ($p = 0; $p < 30; $p++) {
        for ($k = 0; $k < 40; $k++) {
            Cache::getPool("fresh$p")->store("key$k", value_of($p, $k)) || exit(1);
        }
    }
    exit(0);
}
pcntl_waitpid($pid, $st);
$writers = [];
for ($i = 0; $i < 2; $i++) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    if (($pid = pcntl_fork()) === 0) {
        fclose($mine);
        $w = Cache::getPool("writer$i");
        fwrite($theirs, 'r');
        stream_set_blocking($theirs, false);
        for ($n = 0; ; $n++) {
            $w->store('w' . ($n % 32), [$n, str_repeat('p', 1500)]) || exit(1);
            if ($n % 16 === 0 && fread($theirs, 1) === 'q') {
                exit(0);
            }
        }
    }
    fclose($theirs);
    fread($mine, 1);
    $writers[$pid] = $mine;
}
$bad = 0;
for ($p = 0; $p < 30; $p++) {
    $c = Cache::getPool("fresh$p");
    for ($k = 0; $k < 40; $k++) {
        $want = value_of($p, $k);
        $bad += !match ($k % 4) {
            0 => $c->fetch("key$k") === $want,
            1 => $c->has("key$k") && !$c->has("absent$k"),
            2 => $c->fetch("absent$k", 'D') === 'D' && $c->fetch("key$k") === $want,
            3 => $c->fetchMultiple(["key$k", "absent$k"], false) === ["key$k" => $want, "absent$k" => false],
        };
    }
}
$exits = [];
foreach ($writers as $pid => $sock) {
    fwrite($sock, 'q');
    pcntl_waitpid($pid, $st);
    $exits[] = pcntl_wexitstatus($st);
}
var_dump(pcntl_wexitstatus($st), $bad, $exits);

echo "destructors:\n";
class Replaced { public static bool $armed = false; public int $n = 1; public function __destruct() { if (self::$armed) { Cache::getPool('replaced')->clear(); } } }
$c = Cache::getPool('replaced');
$c->store('k', new Replaced());
$held = $c->fetch('k');
Replaced::$armed = true;
var_dump($c->store('k', 'text'), $c->fetch('k'));
unset($held);
Replaced::$armed = false;
var_dump($c->fetch('k'));

class Dropped { public static bool $armed = false; public function __destruct() { if (self::$armed) { self::$armed = false; Cache::getPool('dropped')->store('by-destructor', 'y'); } } }
$c = Cache::getPool('dropped');
$c->store('o', new Dropped());
$held = $c->fetch('o');
Dropped::$armed = true;
var_dump($c->delete('o'), $c->fetch('by-destructor'));
unset($held);
var_dump($c->fetch('by-destructor'));

class Leaf { public int $a = 1; }
class DeletesInGc { public $self; public function __destruct() { global $deletes; $deletes++; Cache::getPool('gc')->delete('proto'); } }
$deletes = 0;
$value = ['a' => new Leaf(), 'b' => [new Leaf(), new Leaf()]];
$c = Cache::getPool('gc');
$same = true;
for ($round = 0; $round < 3; $round++) {
    $c->store('proto', $value);
    gc_collect_cycles();
    $status = gc_status();
    for ($i = $status['roots']; $i < $status['threshold'] - 1; $i++) {
        $g = new DeletesInGc();
        $g->self = $g;
        unset($g);
    }
    $same = $same && $c->fetch('proto') == $value;
}
gc_collect_cycles();
var_dump($same, $deletes > 0);

class StoresOnDestruct { public $a; public $b; public function __destruct() { global $armed; if ($armed) { var_dump(Cache::getPool('multi')->store('by-destructor', [1, 'x'])); } } }
class ThrowsInGc { public $self; public function __destruct() { global $armed, $thrown; if ($armed && !$thrown) { $thrown = true; throw new RuntimeException('from garbage'); } } }
$armed = $thrown = false;
$c = Cache::getPool('multi');
$shared = new stdClass();
$v = new StoresOnDestruct();
$v->a = $v->b = $shared;
$c->store('value', $v);
unset($v, $shared);
gc_collect_cycles();
$status = gc_status();
for ($i = $status['roots']; $i < $status['threshold'] - 1; $i++) {
    $g = new ThrowsInGc();
    $g->self = $g;
    unset($g);
}
$armed = true;
try {
    $c->fetchMultiple(['value']);
    echo "no exception\n";
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
$armed = false;
var_dump($c->fetch('by-destructor'));
gc_collect_cycles();
?>
--EXPECT--
int(0)
int(0)
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(0)
}
destructors:
bool(true)
string(4) "text"
NULL
bool(true)
NULL
string(1) "y"
bool(true)
bool(true)
bool(true)
from garbage
array(2) {
  [0]=>
  int(1)
  [1]=>
  string(1) "x"
}
