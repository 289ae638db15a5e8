--TEST--
Borrowing readers stay intact while other processes replace and delete their keys
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.memory=128M
--FILE--
<?php
require __DIR__ . '/checksum.inc';
$c = Resident\Cache::pool('borrow');
$keys = 100;
for ($k = 0; $k < $keys; $k++) {
    $c->store("k$k", resident_checked_value($k));
}
$pids = [];
$tmp = tempnam(sys_get_temp_dir(), 'resident');
for ($p = 0; $p < 4; $p++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $held = [];
        $bad = 0;
        mt_srand(100 + $p);
        for ($i = 0; $i < resident_scaled(4000); $i++) {
            $key = 'k' . mt_rand(0, $keys - 1);
            if ($p < 2) {
                // Readers keep what they borrowed and re-check it all at the end.
                $v = $c->fetch($key);
                if ($v !== null) {
                    $bad += !resident_value_ok($v);
                    $held[] = $v;
                }
            } elseif (mt_rand(0, 4) === 0) {
                $c->delete($key);
            } else {
                $c->store($key, resident_checked_value(mt_rand()));
            }
        }
        foreach ($held as $v) {
            $bad += !resident_value_ok($v);
        }
        file_put_contents($tmp, "$bad\n", FILE_APPEND | LOCK_EX);
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
echo "corrupted reads: ", array_sum(array_map('intval', file($tmp))), "\n";
unlink($tmp);
// Every reader is gone: nothing is held in limbo any more.
var_dump(Resident\Cache::status()['limbo_bytes']);
?>
--EXPECT--
corrupted reads: 0
int(0)
