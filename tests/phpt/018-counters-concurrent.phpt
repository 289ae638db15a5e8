--TEST--
4 processes: 100,000 increments each end at exactly 400,000; concurrent cas loops never lose an update
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/checksum.inc';
$c = Resident\Cache::pool('atomic');
$c->store('cas', 0);
$n = resident_scaled(100000);
$m = resident_scaled(20000);
$pids = [];
for ($p = 0; $p < 4; $p++) {
    if (($pid = pcntl_fork()) === 0) {
        for ($i = 0; $i < $n; $i++) {
            $c->increment('hits');
        }
        for ($i = 0; $i < $m; $i++) {
            do {
                $old = $c->fetch('cas');
            } while (!$c->cas('cas', $old, $old + 1));
        }
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
var_dump($c->fetch('hits') === 4 * $n, $c->fetch('cas') === 4 * $m);
printf("%d increments -> %d, %d cas updates -> %d\n", 4 * $n, $c->fetch('hits'), 4 * $m, $c->fetch('cas'));
?>
--EXPECTF--
bool(true)
bool(true)
%d increments -> %d, %d cas updates -> %d
