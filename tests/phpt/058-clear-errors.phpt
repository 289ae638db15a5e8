--TEST--
Errors name what was passed and what is allowed: resident.memory (negative, not a size, too small), remember() with keys up to the longest legal one keeps single flight without warnings
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
foreach (['-1', '-64M', 'abc', '100K', '0', '1M'] as $memory) {
    echo "resident.memory=$memory: ", shell_exec(sprintf('%s -n -d extension=%s -d resident.enable_cli=1 -d display_startup_errors=0 -d resident.memory=%s -r %s 2>/dev/null',
        escapeshellarg(PHP_BINARY), escapeshellarg($so), escapeshellarg($memory),
        escapeshellarg('$s = Resident\Cache::status(); echo $s["reason"] ?? $s["memory_size"], "\n";')));
}

// The longest keys: the compute lock's own key must not be refused.
$c = Resident\Cache::pool('long');
$log = tempnam(sys_get_temp_dir(), 'long');
foreach ([4094, 4095, 4096] as $len) {
    $key = str_repeat('k', $len);
    $compute = function () use ($log, $len) {
        file_put_contents($log, "$len\n", FILE_APPEND);
        usleep(300000);
        return "value of $len";
    };
    $started = microtime(true) + 0.1;
    if (($pid = pcntl_fork()) === 0) {
        // The child asks while the parent computes: it waits for that value.
        time_sleep_until($started + 0.1);
        $v = $c->remember($key, $compute);
        echo "child: $v\n";
        exit(0);
    }
    time_sleep_until($started);
    $v = $c->remember($key, $compute);
    pcntl_waitpid($pid, $status);
    echo "parent: $v\n";
}
echo "computed: ", str_replace("\n", " ", file_get_contents($log)), "\n";
unlink($log);
?>
--EXPECT--
resident.memory=-1: resident.memory must be at least 1M, "-1" given
resident.memory=-64M: resident.memory must be at least 1M, "-64M" given
resident.memory=abc: resident.memory must be a size such as 64M (a number of bytes, optionally followed by K, M or G), "abc" given
resident.memory=100K: resident.memory must be at least 1M, "100K" given
resident.memory=0: resident.memory is 0
resident.memory=1M: 1048576
child: value of 4094
parent: value of 4094
child: value of 4095
parent: value of 4095
child: value of 4096
parent: value of 4096
computed: 4094 4095 4096 
