<?php
/*
 * What Resident's class-linked hook costs a request that links many
 * classes (Zend/bench.php links a handful): php-fpm (1 worker, OPcache)
 * under callgrind serves a request that autoloads and instantiates N
 * generated classes (5 properties, 30 methods; every third extends the
 * third before it), without Resident, with Resident loaded and
 * RequestOverStatic off, and with it on. Instructions inside
 * php_execute_script per request, over 20 requests after 20 of warm-up;
 * deterministic, so one run of each.
 *
 *   php8.2 -n -d extension=posix bench/zend/classes.php [--classes=N] [--out=DIR] [--ext=resident.so]
 */
require dirname(__DIR__) . '/lib/Stack.php';

$opts = ['classes' => 300, 'out' => dirname(__DIR__) . '/results',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
$n = (int)$opts['classes'];
if (!is_executable('/usr/bin/valgrind') || !is_executable('/usr/bin/callgrind_control')) {
    Stack::fail('needs valgrind (scripts/install-deps.sh installs it)');
}

// php-fpm under callgrind; the worker's counts are zeroed after the warm-up
// and dumped after the measured requests (callgrind_control).
$wrapper = sys_get_temp_dir() . '/resident-bench-fpm-callgrind-' . getmypid();
$out = sys_get_temp_dir() . '/resident-bench-callgrind-' . getmypid();
file_put_contents($wrapper, "#!/bin/sh\nexec valgrind --tool=callgrind --trace-children=yes --collect-atstart=no"
    . " --toggle-collect=php_execute_script --callgrind-out-file=$out.%p /usr/sbin/php-fpm8.2 \"\$@\"\n");
chmod($wrapper, 0755);

// The hook looks at the members of a linked class only once some script has
// put the attribute on a property or a method: the last configuration has one.
$configs = [
    'no Resident' => [[], false],
    'Resident loaded, RequestOverStatic off' => [["extension={$opts['ext']}", 'resident.request_over_static=0'], false],
    'RequestOverStatic on' => [["extension={$opts['ext']}", 'resident.request_over_static=1'], false],
    'RequestOverStatic on, the attribute on a property of one class' => [["extension={$opts['ext']}", 'resident.request_over_static=1'], true],
];
$perRequest = [];
foreach ($configs as $name => [$extra, $memberAttribute]) {
    $stack = new Stack($wrapper);
    $app = "{$stack->dir}/app";
    mkdir($app);
    for ($i = 0; $i < $n; $i++) {
        $props = $methods = '';
        for ($j = 0; $j < 5; $j++) {
            $props .= "    public \$p$j = $j;\n";
        }
        for ($j = 0; $j < 30; $j++) {
            $methods .= "    public function m$j(\$a) { return \$a + $j; }\n";
        }
        $parent = $i >= 3 && $i % 3 === 0 ? ' extends C' . ($i - 3) : '';
        file_put_contents("$app/C$i.php", "<?php\nclass C$i$parent\n{\n$props$methods}\n");
        // Older than opcache.file_update_protection: cached at once.
        touch("$app/C$i.php", time() - 10);
    }
    file_put_contents("$app/Kept.php", "<?php\nclass Kept\n{\n    #[Resident\\RequestOverStatic]\n    public static int \$hits = 0;\n}\n");
    touch("$app/Kept.php", time() - 10);
    file_put_contents("$app/index.php", "<?php\nspl_autoload_register(fn (\$c) => require __DIR__ . \"/\$c.php\");\n"
        . ($memberAttribute ? "Kept::\$hits++;\n" : '')
        . "for (\$i = 0; \$i < $n; \$i++) { \$c = \"C\$i\"; new \$c(); }\necho 'ok';\n");
    touch("$app/index.php", time() - 10);
    $ini = array_merge(['memory_limit=256M', 'display_errors=stderr', 'log_errors=1', 'zend_extension=opcache.so',
        'opcache.enable=1', 'opcache.validate_timestamps=0'], $extra);
    $stack->fpm('classes', '/classes', "$app/index.php", $ini, [], 1);
    $stack->start('/classes', fn (?string $body) => $body === 'ok');
    for ($i = 0; $i < 20; $i++) {
        $stack->get('/classes');
    }
    $control = 'TMPDIR=' . escapeshellarg($stack->dir) . ' callgrind_control';
    Stack::run("$control -z");
    for ($i = 0; $i < 20; $i++) {
        if ($stack->get('/classes') !== 'ok') {
            Stack::fail("a request failed\n" . $stack->logs());
        }
    }
    Stack::run("$control -d");
    $stack->stop();
    // The worker's dump: the largest of the files written after the reset.
    $dumps = glob("$out.*.*") ?: [];
    usort($dumps, fn ($a, $b) => filesize($b) <=> filesize($a));
    if (!$dumps || !preg_match('/^summary: (\d+)/m', (string)file_get_contents($dumps[0]), $m)) {
        Stack::fail("no callgrind dump of the worker for '$name'");
    }
    $perRequest[$name] = (int)$m[1] / 20;
    array_map('unlink', glob("$out.*") ?: []);
    fprintf(STDERR, "%s: %s instructions per request\n", $name, number_format($perRequest[$name]));
}
unlink($wrapper);

$base = $perRequest['no Resident'];
$lines = [];
$lines[] = sprintf('%s, %s, PHP %s, php-fpm (1 worker, OPcache), callgrind inside php_execute_script, 20 requests after 20 of warm-up.',
    date('Y-m-d H:i'), php_uname('n'), PHP_VERSION);
$lines[] = "A request autoloads and instantiates $n classes (5 properties, 30 methods each; every third extends the third before it); nothing else.";
$lines[] = '';
$lines[] = '| configuration | instructions per request | overhead | per class linked |';
$lines[] = '|---|---:|---:|---:|';
foreach ($perRequest as $name => $ir) {
    $lines[] = sprintf('| %s | %s | %s | %s |', $name, number_format($ir), $name === 'no Resident' ? '' : sprintf('%+.1f%%', 100 * ($ir / $base - 1)),
        $name === 'no Resident' ? '' : number_format(($ir - $base) / $n, 0));
}
$lines[] = '';
$lines[] = 'Per class linked: the difference from no Resident over the classes the request links (in the last row, also the one restored static).';
$table = implode("\n", $lines) . "\n";
echo "\n", $table;
@mkdir($opts['out'], 0777, true);
file_put_contents($opts['out'] . '/zend-classes-latest.md', "# Class-linked hook: a request that links many classes\n\n"
    . "Command: `make bench` (or `php8.2 -n -d extension=posix bench/zend/classes.php`).\n\n" . $table);
fprintf(STDERR, "wrote %s/zend-classes-latest.md\n", $opts['out']);
