<?php
/*
 * Runs every example in docs/*.md, so the docs cannot drift from behaviour.
 *
 *   php8.2 tests/docs/run.php [--php=BINARY] [--ext=resident.so] [-jN] [-v] [docs/page.md...]
 *
 * What counts as an example:
 *
 * - A ```php block. It runs as its own script (a `<?php` line is added when
 *   the block has none) with
 *       BINARY -n -d extension=resident.so -d resident.enable_cli=1 [ini...]
 *   in the repository's root directory.
 * - A ```sh block marked <!-- run: sh -->, run by bash (set -e) in the
 *   repository's root, as on a server where php.ini loads the extension:
 *   `php` on PATH is BINARY, and PHP_INI_SCAN_DIR names a directory whose
 *   only file loads the built extension (so a PHP that bin/resident starts
 *   loads it too).
 *
 * If the next fenced block (blank lines between are fine) is ```text or
 * ```output, it is the example's exact output (stdout and stderr together;
 * the temporary directory the script runs from is removed from paths, so a
 * warning says "in example.php on line 3"). An example with no expected
 * output must exit with 0 and print no error, warning, notice or deprecation.
 *
 * HTML comments on the lines just before a block change how it runs:
 *   <!-- ini: name=value -->      one -d setting (repeat the comment for more)
 *   <!-- prepend: path -->        a file (absolute, or relative to the
 *                                 repository) run before the example, as
 *                                 auto_prepend_file: an autoloader
 *   <!-- extension: none -->      run without the extension (for the polyfill)
 *   <!-- exit: N -->              the exit status expected (default 0)
 *   <!-- file: path -->           the block quotes this file (relative to the
 *                                 repository), which other examples prepend:
 *                                 it must be the file's text, `<?php` aside
 *   <!-- skip: reason -->         not run: only for blocks that cannot run in
 *                                 the CLI (php-fpm configuration and the like)
 *
 * Prints one line per failure with a diff, then "docs: N passed, N failed".
 */

$root = dirname(__DIR__, 2);
$php = '/usr/bin/php8.2';
$ext = "$root/build/php-8.2/modules/resident.so";
$jobs = 4;
$verbose = false;
$files = [];
foreach (array_slice($argv, 1) as $arg) {
    if (str_starts_with($arg, '--php=')) {
        $php = substr($arg, 6);
    } elseif (str_starts_with($arg, '--ext=')) {
        $ext = substr($arg, 6);
    } elseif (preg_match('/^-j(\d+)$/', $arg, $m)) {
        $jobs = max(1, (int)$m[1]);
    } elseif ($arg === '-v') {
        $verbose = true;
    } else {
        $files[] = $arg;
    }
}
if (!$files) {
    $files = glob("$root/docs/*.md");
}
if (!is_file($ext)) {
    fwrite(STDERR, "missing $ext: run make build\n");
    echo "docs: 0 passed, 1 failed\n";
    exit(1);
}

/** The examples of one Markdown file. */
function examples(string $file): array
{
    $lines = explode("\n", file_get_contents($file));
    $examples = [];
    $marks = [];
    $n = count($lines);
    for ($i = 0; $i < $n; $i++) {
        $line = $lines[$i];
        if (preg_match('/^<!--\s*(ini|prepend|exit|skip|run|file|extension):\s*(.*?)\s*-->\s*$/', $line, $m)) {
            $marks[] = [$m[1], $m[2]];
            continue;
        }
        if (!preg_match('/^(`{3,})\s*([\w-]*)/', $line, $m)) {
            if (trim($line) !== '') {
                $marks = [];
            }
            continue;
        }
        [$fence, $lang, $start] = [$m[1], strtolower($m[2]), $i + 1];
        $body = [];
        for ($i++; $i < $n && !preg_match('/^' . $fence . '\s*$/', $lines[$i]); $i++) {
            $body[] = $lines[$i];
        }
        $run = null;
        foreach ($marks as [$k, $v]) {
            if ($k === 'run') {
                $run = $v;
            }
        }
        $isExample = $lang === 'php' || ($lang === 'sh' && $run === 'sh');
        if (!$isExample) {
            $marks = [];
            continue;
        }
        $example = ['file' => $file, 'line' => $start, 'lang' => $lang, 'code' => implode("\n", $body) . "\n",
            'ini' => [], 'prepend' => null, 'exit' => 0, 'skip' => null, 'expected' => null, 'quotes' => null, 'extension' => true];
        foreach ($marks as [$k, $v]) {
            match ($k) {
                'ini' => $example['ini'][] = $v,
                'prepend' => $example['prepend'] = $v,
                'exit' => $example['exit'] = (int)$v,
                'skip' => $example['skip'] = $v,
                'file' => $example['quotes'] = $v,
                'extension' => $example['extension'] = $v !== 'none',
                'run' => null,
            };
        }
        $marks = [];
        // The expected output: the next fenced block, if it is text/output.
        for ($j = $i + 1; $j < $n && trim($lines[$j]) === ''; $j++) {
        }
        if ($j < $n && preg_match('/^(`{3,})\s*(text|output)\s*$/', $lines[$j], $m)) {
            $out = [];
            for ($j++; $j < $n && !preg_match('/^' . $m[1] . '\s*$/', $lines[$j]); $j++) {
                $out[] = $lines[$j];
            }
            $example['expected'] = implode("\n", $out);
            $i = $j;
        }
        $examples[] = $example;
    }
    return $examples;
}

/** Starts one example; returns what finish() needs. */
function start(array $ex, string $root, string $php, string $ext): array
{
    $dir = sys_get_temp_dir() . '/resident-docs-' . getmypid() . '-' . bin2hex(random_bytes(4));
    mkdir($dir);
    $env = getenv();
    if ($ex['lang'] === 'php') {
        $code = $ex['code'];
        if (!preg_match('/^\s*<\?php/', $code)) {
            $code = "<?php\n" . $code;
        }
        file_put_contents("$dir/example.php", $code);
        $cmd = $ex['extension'] ? [$php, '-n', '-d', "extension=$ext", '-d', 'resident.enable_cli=1'] : [$php, '-n'];
        foreach ($ex['ini'] as $setting) {
            array_push($cmd, '-d', $setting);
        }
        if ($ex['prepend'] !== null) {
            $prepend = str_starts_with($ex['prepend'], '/') ? $ex['prepend'] : $root . '/' . $ex['prepend'];
            array_push($cmd, '-d', 'auto_prepend_file=' . $prepend);
        }
        $cmd[] = "$dir/example.php";
    } else {
        file_put_contents("$dir/example.sh", "set -e\n" . $ex['code']);
        mkdir("$dir/bin");
        symlink($php, "$dir/bin/php");
        mkdir("$dir/conf.d");
        file_put_contents("$dir/conf.d/resident.ini", "extension=$ext\n");
        $env['PATH'] = "$dir/bin:" . ($env['PATH'] ?? '/usr/bin:/bin');
        $env['PHP_INI_SCAN_DIR'] = "$dir/conf.d";
        unset($env['RESIDENT_SEGMENT'], $env['RESIDENT_EXTENSION']);
        $cmd = ['/bin/bash', "$dir/example.sh"];
    }
    $cmd = array_merge(['timeout', '60'], $cmd);
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, $root, $env);
    stream_set_blocking($pipes[1], false);
    return ['ex' => $ex, 'dir' => $dir, 'proc' => $proc, 'out' => $pipes[1], 'buf' => '', 'began' => microtime(true)];
}

/** A finished example's verdict: null if it passed, else why not. */
function verdict(array $run, int $rc): ?string
{
    $ex = $run['ex'];
    $out = str_replace([$run['dir'] . '/', $run['dir']], ['', '.'], $run['buf']);
    $problems = [];
    if ($ex['quotes'] !== null) {
        $strip = fn (string $code) => trim(preg_replace('/^\s*<\?php\s*\n/', '', $code));
        $file = $GLOBALS['root'] . '/' . $ex['quotes'];
        if (!is_file($file)) {
            $problems[] = "quotes {$ex['quotes']}, which does not exist";
        } elseif ($strip(file_get_contents($file)) !== $strip($ex['code'])) {
            $problems[] = "differs from {$ex['quotes']}, which it quotes";
        }
    }
    if ($rc !== $ex['exit']) {
        $problems[] = "exit status $rc, expected {$ex['exit']}";
    }
    if ($ex['expected'] === null) {
        if (preg_match('/^(PHP )?(Fatal error|Parse error|Warning|Notice|Deprecated|Strict Standards):.*$/mi', $out, $m)) {
            $problems[] = "printed: $m[0]";
        }
        if ($problems && trim($out) !== '') {
            $problems[] = "output:\n" . $out;
        }
    } elseif (trim($out, "\n") !== trim($ex['expected'], "\n")) {
        $a = tempnam(sys_get_temp_dir(), 'docs-expected');
        $b = tempnam(sys_get_temp_dir(), 'docs-actual');
        file_put_contents($a, trim($ex['expected'], "\n") . "\n");
        file_put_contents($b, trim($out, "\n") . "\n");
        $diff = shell_exec('diff -u --label expected --label actual ' . escapeshellarg($a) . ' ' . escapeshellarg($b));
        unlink($a);
        unlink($b);
        $problems[] = "output differs:\n" . $diff;
    }
    return $problems ? implode("\n", $problems) : null;
}

$queue = [];
foreach ($files as $file) {
    foreach (examples($file) as $ex) {
        $queue[] = $ex;
    }
}

$passed = $failed = $skipped = 0;
$running = [];
$relative = fn (string $file) => str_starts_with($file, "$root/") ? substr($file, strlen($root) + 1) : $file;
while ($queue || $running) {
    while ($queue && count($running) < $jobs) {
        $ex = array_shift($queue);
        if ($ex['skip'] !== null) {
            $skipped++;
            if ($verbose) {
                echo "SKIP {$relative($ex['file'])}:{$ex['line']} ({$ex['skip']})\n";
            }
            continue;
        }
        $running[] = start($ex, $root, $php, $ext);
    }
    if (!$running) {
        break;
    }
    $read = array_map(fn ($r) => $r['out'], $running);
    $w = $e = null;
    @stream_select($read, $w, $e, 0, 100000);
    foreach ($running as $k => &$run) {
        $chunk = stream_get_contents($run['out']);
        if ($chunk !== false && $chunk !== '') {
            $run['buf'] .= $chunk;
        }
        $status = proc_get_status($run['proc']);
        if ($status['running']) {
            continue;
        }
        $run['buf'] .= stream_get_contents($run['out']);
        fclose($run['out']);
        proc_close($run['proc']);
        exec('rm -rf ' . escapeshellarg($run['dir']));
        $where = $relative($run['ex']['file']) . ':' . $run['ex']['line'];
        $why = verdict($run, $status['exitcode']);
        if ($why === null) {
            $passed++;
            if ($verbose) {
                printf("PASS %s (%.2f s)\n", $where, microtime(true) - $run['began']);
            }
        } else {
            $failed++;
            echo "FAIL $where\n$why\n";
        }
        unset($running[$k]);
    }
    unset($run);
}

printf("docs: %d passed, %d failed%s\n", $passed, $failed, $skipped ? ", $skipped skipped" : '');
exit($failed ? 1 : 0);
