--TEST--
4 processes, 200,000 mixed store/fetch/delete operations on overlapping keys: no corrupted read, no deadlock
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.memory=32M
--FILE--
<?php
require __DIR__ . '/checksum.inc';
$c = Resident\Cache::pool('concurrent');
$procs = 4;
$ops = resident_scaled(50000);
$keys = 300;
$pids = [];
$tmp = tempnam(sys_get_temp_dir(), 'resident');
for ($p = 0; $p < $procs; $p++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $bad = $hits = $stores = 0;
        mt_srand($p + 1);
        $rng = mt_rand();
        for ($i = 0; $i < $ops; $i++) {
            $rng = ($rng * 1103515245 + 12345) & 0x7fffffff;
            $key = 'k' . ($rng % $keys);
            $op = ($rng >> 8) % 10;
            if ($op < 6) {
                $v = $c->fetch($key);
                if ($v !== null) {
                    $hits++;
                    $bad += !resident_value_ok($v);
                }
            } elseif ($op < 9) {
                $stores += $c->store($key, resident_checked_value($rng));
            } else {
                $c->delete($key);
            }
        }
        file_put_contents($tmp, "$bad $hits $stores\n", FILE_APPEND | LOCK_EX);
        exit($bad ? 1 : 0);
    }
    $pids[] = $pid;
}
$ok = 0;
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    $ok += pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0;
}
$bad = $hits = $stores = 0;
foreach (file($tmp) as $line) {
    [$b, $h, $s] = explode(' ', trim($line));
    $bad += $b; $hits += $h; $stores += $s;
}
unlink($tmp);
echo "processes finished cleanly: $ok of $procs\n";
echo "corrupted reads: $bad\n";
var_dump($hits > 0, $stores > 0);
printf("%d operations, %d hits, %d stores\n", $procs * $ops, $hits, $stores);
?>
--EXPECTF--
processes finished cleanly: 4 of 4
corrupted reads: 0
bool(true)
bool(true)
%d operations, %d hits, %d stores
