--TEST--
A writer killed (SIGKILL) while it holds the write lock: the others go on, the index stays consistent
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.testing=1
resident.memory=8M
--FILE--
<?php
require __DIR__ . '/checksum.inc';
$c = Resident\Cache::pool('crash');
for ($k = 0; $k < 50; $k++) {
    $c->store("k$k", resident_checked_value($k));
}

$actions = [
    'holding_lock' => fn() => null,
    'after_alloc' => fn() => $c->store('k1', resident_checked_value(1001)),
    'after_link' => fn() => $c->store('k2', resident_checked_value(1002)),
    'after_unlink' => fn() => $c->delete('k3'),
    'in_free' => function () use ($c) { for ($i = 0; $i < 40; $i++) { $c->store("f$i", "x$i"); } $c->clear(); },
];
foreach ($actions as $point => $action) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        Resident\Testing::crashAt($point);
        $action();
        exit(0); // not reached
    }
    pcntl_waitpid($pid, $status);
    $killed = pcntl_wifsignaled($status) && pcntl_wtermsig($status) === SIGKILL;

    // Another process stores and fetches as if nothing happened.
    $other = pcntl_fork();
    if ($other === 0) {
        $ok = $c->store("after-$point", resident_checked_value(7))
            && resident_value_ok($c->fetch("after-$point"));
        exit($ok ? 0 : 1);
    }
    pcntl_waitpid($other, $status);
    $others_ok = pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0;

    $intact = true;
    for ($k = 0; $k < 50; $k++) {
        $v = $c->fetch("k$k");
        if ($v !== null && !resident_value_ok($v)) {
            $intact = false;
        }
    }
    printf("%-12s killed: %s, others store and fetch: %s, values intact: %s, index: %s\n",
        $point, $killed ? 'yes' : 'no', $others_ok ? 'yes' : 'no', $intact ? 'yes' : 'no',
        Resident\Testing::check() ?? 'consistent');
    if ($point === 'in_free') {
        break;
    }
    $c->store('k1', resident_checked_value(1));
    $c->store('k2', resident_checked_value(2));
    $c->store('k3', resident_checked_value(3));
}
$s = Resident\Cache::status();
var_dump($s['recoveries']);
// After recovery nothing is leaked: dropping everything frees everything.
$c->clear();
Resident\Cache::pool()->clear();
$s = Resident\Cache::status();
var_dump($s['memory_used'], $s['entries']);
?>
--EXPECT--
holding_lock killed: yes, others store and fetch: yes, values intact: yes, index: consistent
after_alloc  killed: yes, others store and fetch: yes, values intact: yes, index: consistent
after_link   killed: yes, others store and fetch: yes, values intact: yes, index: consistent
after_unlink killed: yes, others store and fetch: yes, values intact: yes, index: consistent
in_free      killed: yes, others store and fetch: yes, values intact: yes, index: consistent
int(5)
int(0)
int(0)
