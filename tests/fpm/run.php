<?php
/*
 * php-fpm integration tests: a real php-fpm master with the extension,
 * talked to over FastCGI. Usage: run.php <php-fpm binary> <resident.so>
 * Prints one line per test and a summary "fpm integration: N passed, N failed".
 */
require __DIR__ . '/Fpm.php';

[$_, $fpmBinary, $ext] = $argv + [null, '/usr/sbin/php-fpm8.2', dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so'];
$www = __DIR__ . '/www/cache.php';
$ini = ["extension=$ext", 'resident.memory=64M', 'display_errors=stderr', 'log_errors=1', 'error_log=/dev/stderr'];
if (!extension_loaded('posix')) {
    fwrite(STDERR, "the posix extension is needed\n");
    exit(1);
}

$passed = $failed = 0;
function check(string $name, bool $ok, string $detail = ''): void
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    printf("%s %s%s\n", $ok ? 'PASS' : 'FAIL', $name, $ok || $detail === '' ? '' : ": $detail");
}

function call(Fpm $fpm, string $query): array
{
    global $www;
    [$headers, $body] = $fpm->client->get($www, $query);
    return [json_decode($body, true) ?? $body, (int)($headers['x-pid'] ?? 0)];
}

$tests = [
    'requests borrow (zero-copy) under php-fpm' => function (Fpm $fpm) {
        [$s] = call($fpm, 'op=status');
        return [$s['available'] === true && $s['zero_copy'] === 'borrow', json_encode($s)];
    },
    'a value stored by one request is seen by every worker' => function (Fpm $fpm) {
        call($fpm, 'op=store&key=shared&value=hello');
        $pids = [];
        $ok = true;
        for ($i = 0; $i < 30; $i++) {
            [$v, $pid] = call($fpm, 'op=fetch&key=shared');
            $ok = $ok && $v === 'hello';
            $pids[$pid] = true;
        }
        return [$ok && count($pids) === 2, 'values ok: ' . var_export($ok, true) . ', workers seen: ' . count($pids)];
    },
    'a 1,000,000-element list is fetched without copying' => function (Fpm $fpm) {
        call($fpm, 'op=store_list');
        [$r] = call($fpm, 'op=fetch_list');
        return [$r['count'] === 1000000 && $r['growth'] === 0 && $r['last'] === 1000000 && $r['same'], json_encode($r)];
    },
    'what a request replaced is freed once it ends' => function (Fpm $fpm) {
        [$during] = call($fpm, 'op=churn&n=200');
        [$s] = call($fpm, 'op=status');
        return [$during > 0 && $s['limbo_bytes'] === 0, "limbo during the request: $during, after: {$s['limbo_bytes']}"];
    },
    'a worker killed while borrowing does not pin memory' => function (Fpm $fpm) {
        call($fpm, 'op=store&key=held&value=' . str_repeat('h', 1000));
        $pidfile = $fpm->dir . '/held.pid';
        $sock = $fpm->dir . '/fpm.sock';
        // Start the holding request in the background (its own connection).
        $bg = proc_open([PHP_BINARY, '-r', sprintf('require %s; (new FastCgi(%s))->get(%s, %s);',
            var_export(__DIR__ . '/FastCgi.php', true), var_export($sock, true),
            var_export(__DIR__ . '/www/cache.php', true), var_export('op=hold&pidfile=' . $pidfile, true))],
            [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $held = Fpm::waitForPid($pidfile);
        [$during] = call($fpm, 'op=churn&n=50');          // runs on the other worker
        [$s1] = call($fpm, 'op=status');
        posix_kill($held, SIGKILL);
        proc_close($bg);
        usleep(200000);
        [$s2] = call($fpm, 'op=status');
        return [$held > 0 && $s1['limbo_bytes'] > 0 && $s2['limbo_bytes'] === 0 && $s2['dead_slots_cleared'] >= 1,
            "holder $held, limbo while held: {$s1['limbo_bytes']}, after kill: {$s2['limbo_bytes']}, dead slots cleared: {$s2['dead_slots_cleared']}"];
    },
    'a request that borrows does not make a store evict the whole cache, and what it pinned comes back when it ends' => function (Fpm $fpm) {
        // A request holds the epoch it started at until it ends, so what is
        // evicted meanwhile stays in limbo: a 100 KB store into a full
        // segment evicted every entry (hardening issue: 165 of 165).
        [$fill] = call($fpm, 'op=fill');
        call($fpm, 'op=store_pinned&key=held&value=' . str_repeat('h', 1000));
        $pidfile = $fpm->dir . '/held.pid';
        $release = $fpm->dir . '/release';
        $bg = proc_open([PHP_BINARY, '-r', sprintf('require %s; (new FastCgi(%s))->get(%s, %s, 60);',
            var_export(__DIR__ . '/FastCgi.php', true), var_export($fpm->dir . '/fpm.sock', true),
            var_export(__DIR__ . '/www/cache.php', true), var_export("op=hold_until&pidfile=$pidfile&release=$release", true))],
            [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $held = Fpm::waitForPid($pidfile);
        [$during] = call($fpm, 'op=store_large');        // on the other worker
        touch($release);
        proc_close($bg);                                  // the holding request has ended
        [$s] = call($fpm, 'op=status');
        [$after] = call($fpm, 'op=store_large');
        $noRoom = fn (array $r) => str_contains((string)$r['warning'], 'No room for key') && str_contains($r['warning'], 'still read by requests in flight');
        // While it reads: the first store evicts one entry of its size,
        // waits 50 x 1 ms for the reader and gives up; the second, with the
        // same reader still in, neither evicts nor waits.
        $ok = $held > 0 && $fill['entries'] > 300
            && $during[0]['stored'] === false && $during[0]['evicted'] === 1 && $during[0]['waits'] === 50
            && $noRoom($during[0])
            && $during[1]['stored'] === false && $during[1]['evicted'] === 0 && $during[1]['waits'] === 0
            && $noRoom($during[1])
            // After: limbo drained, and the store takes the block its victim freed.
            && $s['limbo_bytes'] === 0 && $after[0]['stored'] === true && $after[0]['evicted'] === 0 && $after[0]['waits'] === 0;
        return [$ok, json_encode(['holder' => $held, 'fill' => $fill, 'during' => $during, 'limbo after' => $s['limbo_bytes'], 'after' => $after[0]])];
    },
    'a value stored by old code is read by new code as unserialize() would' => function (Fpm $fpm) {
        $classes = __DIR__ . '/www/classes.php';
        [$h, $stored] = $fpm->client->get($classes, 'v=1&op=store');
        [$h, $same] = $fpm->client->get($classes, 'v=1&op=fetch');
        [$h, $changed] = $fpm->client->get($classes, 'v=2&op=fetch');
        [$h, $gone] = $fpm->client->get($classes, 'v=3&op=fetch');
        $same = json_decode($same, true);
        $changed = json_decode($changed, true);
        $gone = json_decode($gone, true);
        $ok = $stored === '[true,true,true]'
            && $same['props'] === ['name' => 'Ann', 'age' => 42, "\0Profile\0secret" => 's'] && $same['level'] === 'High'
            // Properties land by name: age in its typed slot, secret with its new visibility, name as a dynamic one.
            && $changed['class'] === 'Profile' && $changed['props']['age'] === 42 && $changed['props']['name'] === 'Ann'
            && $changed['props']["\0*\0secret"] === 's' && $changed['props']['email'] === 'e'
            && $changed['level'] === 'Error: Undefined constant Level::High' && $changed['low'] === 'Low'
            && $gone['class'] === '__PHP_Incomplete_Class' && str_starts_with($gone['level'], 'Error: Class');
        return [$ok, json_encode([$stored, $same, $changed, $gone])];
    },
    'a store is sized by the same kind of value of an earlier request, and gives back what it did not take' => function (Fpm $fpm) {
        // A worker's guess for Box comes from its earlier requests (which
        // worker serves which request is php-fpm's choice): smaller, equal
        // and larger values in turn.
        $www = __DIR__ . '/www/sizes.php';
        $ok = true;
        $memory = [];
        $pids = [];
        foreach ([10, 10, 5000, 10, 5000, 5000, 100, 10, 20000, 10, 10, 10] as $i => $n) {
            [$h, $body] = $fpm->client->get($www, "n=$n");
            $r = json_decode($body, true);
            $ok = $ok && $r['stored'] === true && $r['same'] === true;
            $memory[$n][] = $r['memory'] ?? null;
            $pids[$h['x-pid'] ?? 0] = true;
        }
        // The same value takes the same memory however it was sized.
        $ok = $ok && count(array_unique($memory[10])) === 1 && count(array_unique($memory[5000])) === 1;
        return [$ok, json_encode([$memory, count($pids)])];
    },
];

foreach ($tests as $name => $test) {
    $fpm = new Fpm($fpmBinary, $ini);
    try {
        [$ok, $detail] = $test($fpm);
        check($name, $ok, $detail);
    } catch (Throwable $e) {
        check($name, false, $e->getMessage() . "\n" . $fpm->log());
    }
    $fpm->stop();
}

// RequestOverStatic, without and with OPcache (timestamps checked on every
// request, as in development) and the tracing JIT.
$opcache = ['zend_extension=opcache', 'opcache.enable=1', 'opcache.validate_timestamps=1', 'opcache.revalidate_freq=0',
    'opcache.jit=tracing', 'opcache.jit_buffer_size=32M'];
$staticsTests = require __DIR__ . '/statics.php';
// With publish: 'immediate' on (the Live class of statics.php): the other
// scopes still publish at request end.
$immediate = ['resident.request_over_static_immediate=1'];
foreach (['' => array_merge($ini, $immediate), ', OPcache + JIT' => array_merge($ini, $immediate, $opcache)] as $mode => $modeIni) {
    foreach ($staticsTests as $name => $test) {
        $fpm = new Fpm($fpmBinary, $modeIni);
        try {
            $dir = $fpm->dir . '/classes';
            mkdir($dir);
            [$ok, $detail] = $test($fpm, $dir);
            check("RequestOverStatic$mode: $name", $ok, $detail . ($ok ? '' : "\n" . $fpm->log()));
        } catch (Throwable $e) {
            check("RequestOverStatic$mode: $name", false, $e->getMessage() . "\n" . $fpm->log());
        }
        $fpm->stop();
    }
}

// RequestOverStatic as in production: OPcache does not stat() files
// (validate_timestamps=0), and a deploy tells it with opcache_reset() or
// opcache_invalidate(), which RequestOverStatic must hear in every worker.
$production = ['zend_extension=opcache', 'opcache.enable=1', 'opcache.validate_timestamps=0',
    'opcache.jit=tracing', 'opcache.jit_buffer_size=32M'];
$deployTests = [
    'a class-file edit is not seen until opcache_invalidate() in one worker, which drops that file\'s snapshot for both; explicit entries stay' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        [$first, $writer] = statics_call($fpm, $dir, 'op=add&item=a');
        statics_call($fpm, $dir, 'op=members&item=m');
        statics_call($fpm, $dir, 'op=explicit_store&value=v1');
        file_put_contents("$dir/Catalog.php", file_get_contents("$dir/Catalog.php") . "// deployed\n");
        touch("$dir/Catalog.php", time() + 60);
        [$kept, $reader] = statics_call_other($fpm, $dir, 'op=read', $writer);
        [$invalidated] = statics_call($fpm, $dir, 'op=opcache_invalidate&class=Catalog');
        $after = [];
        for ($i = 0; $i < 4; $i++) {
            [$after[]] = statics_call($fpm, $dir, 'op=read');
        }
        [$members] = statics_call($fpm, $dir, 'op=members&item=n');
        [$explicit] = statics_call($fpm, $dir, 'op=explicit_fetch');
        return [$first === ['a'] && $reader !== $writer && $kept === ['a'] && $invalidated === true && $after === [[], [], [], []]
            && ($members[0] ?? null) === ['m', 'n'] && $explicit === 'v1',
            json_encode([$first, $writer, $reader, $kept, $invalidated, $after, $members, $explicit])];
    },
    'opcache_reset() in one worker drops every snapshot for both; explicit entries stay' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        [$first, $writer] = statics_call($fpm, $dir, 'op=add&item=a');
        statics_call($fpm, $dir, 'op=members&item=m');
        statics_call($fpm, $dir, 'op=explicit_store&value=v1');
        [$reset] = statics_call($fpm, $dir, 'op=opcache_reset');
        [$other, $reader] = statics_call_other($fpm, $dir, 'op=read', $writer);
        [$members] = statics_call($fpm, $dir, 'op=members&item=n');
        [$explicit] = statics_call($fpm, $dir, 'op=explicit_fetch');
        return [$first === ['a'] && $reset === true && $reader !== $writer && $other === [] && ($members[0] ?? null) === ['n']
            && $explicit === 'v1', json_encode([$first, $reset, $writer, $reader, $other, $members, $explicit])];
    },
];
foreach ($deployTests as $name => $test) {
    $fpm = new Fpm($fpmBinary, array_merge($ini, $production));
    try {
        $dir = $fpm->dir . '/classes';
        mkdir($dir);
        [$ok, $detail] = $test($fpm, $dir);
        check("RequestOverStatic, OPcache without timestamps: $name", $ok, $detail . ($ok ? '' : "\n" . $fpm->log()));
    } catch (Throwable $e) {
        check("RequestOverStatic, OPcache without timestamps: $name", false, $e->getMessage() . "\n" . $fpm->log());
    }
    $fpm->stop();
}

// Closures kept as a kept app keeps them, OPcache as in production; the
// test writes the app's files just before it runs: OPcache caches them at
// once (file_update_protection=0).
foreach (require __DIR__ . '/closures.php' as $name => $test) {
    $fpm = new Fpm($fpmBinary, array_merge($ini, $production, ['opcache.file_update_protection=0']));
    try {
        $dir = $fpm->dir . '/app';
        mkdir($dir);
        [$ok, $detail] = $test($fpm, $dir);
        check("Closures, OPcache without timestamps: $name", $ok, $detail . ($ok ? '' : "\n" . $fpm->log()));
    } catch (Throwable $e) {
        check("Closures, OPcache without timestamps: $name", false, $e->getMessage() . "\n" . $fpm->log());
    }
    $fpm->stop();
}

// An OPcache restart of its own (hash overflow): the memory the kept
// closures' code was in holds other code, so they are a miss.
$fpm = new Fpm($fpmBinary, array_merge($ini, $production, ['opcache.file_update_protection=0', 'opcache.max_accelerated_files=200',
    'opcache.validate_timestamps=1', 'opcache.revalidate_freq=0', 'opcache.max_wasted_percentage=1', 'opcache.memory_consumption=16']), 1);
try {
    $dir = $fpm->dir . '/app';
    mkdir($dir);
    [$ok, $detail] = closures_restart_test($fpm, $dir, $served);
    check('Closures: after OPcache restarts on its own, kept closures whose code it no longer holds are a miss', $ok, $detail . ($ok ? '' : "\n" . $fpm->log()));
} catch (Throwable $e) {
    check('Closures: after OPcache restarts on its own, kept closures whose code it no longer holds are a miss', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();

// Fatal errors inside fetch(): one worker, so that every request runs
// where the fatal ones did.
foreach (require __DIR__ . '/faults.php' as $name => $spec) {
    [$poolSettings, $test, $workers, $env] = $spec + [2 => 1, 3 => []];
    $fpm = new Fpm($fpmBinary, array_merge($ini, ['resident.memory=16M', 'resident.testing=1']), $workers, $poolSettings, [], $env);
    try {
        $dir = $fpm->dir . '/classes';
        mkdir($dir);
        [$ok, $detail] = $test($fpm, $dir);
        if ($ok === null) {
            echo "SKIP $name: $detail\n";
        } else {
            check($name, $ok, $detail . ($ok ? '' : "\n" . substr($fpm->log(), -3000)));
        }
    } catch (Throwable $e) {
        check($name, false, $e->getMessage() . "\n" . substr($fpm->log(), -3000));
    }
    $fpm->stop();
}

// Preloaded classes are linked once, before any request: their statics are
// restored at request start.
$preloadDir = sys_get_temp_dir() . '/resident-preload-' . getmypid();
@mkdir($preloadDir);
file_put_contents("$preloadDir/Preloaded.php", "<?php\n#[Resident\\RequestOverStatic]\nfinal class Preloaded { public static int \$hits = 0; }\n");
// Preloaded classes' layouts, their objects' shapes and which classes their
// typed properties accept (an interface here) are known once per worker
// (value/class_layout.c, value/shape_cache.c), unless a default is a
// constant expression, evaluated per request.
file_put_contents("$preloadDir/PreloadedPoint.php", '<?php
interface PreloadedShape {}
final class PreloadedPoint implements PreloadedShape
{
    public function __construct(public int $x = 1, public string $label = "a", public ?PreloadedShape $next = null) {}
}
final class PreloadedLimit
{
    public const N = 5;
    public int $max = self::N * 2;
    public array $tags = ["t"];
}
');
file_put_contents("$preloadDir/preload.php", "<?php\nopcache_compile_file(__DIR__ . '/Preloaded.php');\nopcache_compile_file(__DIR__ . '/PreloadedPoint.php');\n");
$fpm = new Fpm($fpmBinary, array_merge($ini, $opcache, ["opcache.preload=$preloadDir/preload.php", 'opcache.preload_user=' . posix_getpwuid(posix_geteuid())['name']]));
try {
    $hits = [];
    for ($i = 0; $i < 6; $i++) {
        [$hits[]] = statics_call($fpm, $preloadDir, 'op=preloaded');
    }
    // An edit of a preloaded class's file changes nothing that runs before
    // php-fpm restarts: the statics are still those of the preloaded code.
    file_put_contents("$preloadDir/Preloaded.php", "<?php\n#[Resident\\RequestOverStatic]\nfinal class Preloaded { public static int \$hits = 100; }\n");
    touch("$preloadDir/Preloaded.php", time() + 10);
    for ($i = 0; $i < 4; $i++) {
        [$hits[]] = statics_call($fpm, $preloadDir, 'op=preloaded');
    }
    check('RequestOverStatic, OPcache preloading: a preloaded class keeps its statics, also after its file changed on disk',
        $hits === [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], json_encode($hits) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check('RequestOverStatic, OPcache preloading: a preloaded class keeps its statics, also after its file changed on disk', false, $e->getMessage() . "\n" . $fpm->log());
}
try {
    $seen = [];
    for ($i = 0; $i < 8; $i++) {
        [$answer, $pid] = statics_call($fpm, $preloadDir, 'op=preloaded_values');
        $seen[json_encode($answer)][$pid] = true;
    }
    $expect = json_encode(array_fill(0, 2, [3, 'c', 2, 'a', null, 10, ['t'], 1]));
    check('OPcache preloading: objects of preloaded classes (one with a constant-expression default) and an internal class, fetched and kept, are the same in every request of every worker',
        array_keys($seen) === [$expect], json_encode($seen) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check('OPcache preloading: objects of preloaded classes (one with a constant-expression default) and an internal class, fetched and kept, are the same in every request of every worker', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();

// Shapes of a preloaded class are kept for the worker, and with them
// whether its objects restore through __wakeup(), which depends on
// resident.direct_classes: a request whose PHP_ADMIN_VALUE lists the class
// (php-fpm keeps it in the worker for the requests after it, until another
// request's PHP_ADMIN_VALUE sets it again) must not restore through what
// was kept before, nor the requests after the list is emptied again through
// what it kept. One worker: every request meets what the others kept.
file_put_contents("$preloadDir/KeptWakeup.php", '<?php
final class KeptWakeup
{
    public static int $wakeups = 0;
    public function __construct(public int $n) {}
    public function __wakeup(): void { self::$wakeups++; }
}
');
file_put_contents("$preloadDir/preload.php", "<?php\nopcache_compile_file(__DIR__ . '/KeptWakeup.php');\n");
file_put_contents("$preloadDir/direct_change.php", '<?php
$c = Resident\Cache::pool("direct-change");
if (($_GET["op"] ?? "") === "store") {
    $c->store("v", [new KeptWakeup(1), new KeptWakeup(2)]);
}
KeptWakeup::$wakeups = 0;
$sum = 0;
for ($i = 0; $i < 3; $i++) {
    $sum += array_sum(array_map(fn ($o) => $o->n, $c->fetch("v")));
}
echo json_encode([KeptWakeup::$wakeups, $sum, ini_get("resident.direct_classes")]);
');
$fpm = new Fpm($fpmBinary, array_merge($ini, $opcache, ["opcache.preload=$preloadDir/preload.php", 'opcache.preload_user=' . posix_getpwuid(posix_geteuid())['name']]), 1);
try {
    $listed = ['PHP_ADMIN_VALUE' => 'resident.direct_classes=KeptWakeup'];
    $emptied = ['PHP_ADMIN_VALUE' => 'resident.direct_classes='];
    $seen = [];
    foreach ([['op=store', []], ['', []], ['', $listed], ['', []], ['', $emptied], ['', []]] as [$query, $params]) {
        $seen[] = json_decode($fpm->client->get("$preloadDir/direct_change.php", $query, 10.0, $params)[1], true);
    }
    $expect = [[6, 9, ''], [6, 9, ''], [0, 9, 'KeptWakeup'], [0, 9, 'KeptWakeup'], [6, 9, ''], [6, 9, '']];
    check('OPcache preloading: a preloaded class listed in resident.direct_classes by a request\'s PHP_ADMIN_VALUE restores its objects without __wakeup() from then on, and through __wakeup() again once another one empties the list, in one worker',
        $seen === $expect, json_encode($seen) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check('OPcache preloading: a preloaded class listed in resident.direct_classes by a request\'s PHP_ADMIN_VALUE restores its objects without __wakeup() from then on, and through __wakeup() again once another one empties the list, in one worker', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();
exec('rm -rf ' . escapeshellarg($preloadDir));

// Shapes of classes OPcache holds are kept for the worker (value/
// shape_cache.c) and found again in a request only where the class of
// their name is at the same address and has the same print: after
// opcache_reset() the worker's next request compiles the class again,
// here with its properties retyped (likely at the same address, in the
// same order), and a stored int must not land in a property now typed
// string (it fails, as unserialize() fails). One worker, no JIT; files
// cached as soon as written (opcache.file_update_protection=0: else a file
// younger than 2 seconds is compiled per request, its class not OPcache's).
$printDir = sys_get_temp_dir() . '/resident-print-' . getmypid();
@mkdir($printDir);
$pointClass = fn (string $x, string $label) => "<?php\nfinal class KeptPrintPoint\n{\n    public function __construct(public $x \$x, public $label \$label) {}\n}\n";
file_put_contents("$printDir/Point.php", $pointClass('int', 'string'));
file_put_contents("$printDir/print.php", '<?php
if (($_GET["op"] ?? "") === "change") {
    file_put_contents(__DIR__ . "/Point.php", ' . var_export($pointClass('string', 'int'), true) . ');
    echo json_encode(opcache_reset());
    return;
}
require __DIR__ . "/Point.php";
$c = Resident\Cache::pool("print");
if (($_GET["op"] ?? "") === "store") {
    $c->store("p", [new KeptPrintPoint(5, "five"), new KeptPrintPoint(6, "six")]);
}
try {
    $out = [];
    foreach ($c->fetch("p") as $o) {
        $out[] = get_debug_type($o->x) . " " . $o->x . ", " . get_debug_type($o->label) . " " . $o->label;
    }
} catch (Throwable $e) {
    $out = get_class($e) . ": " . $e->getMessage();
}
echo json_encode($out);
');
$fpm = new Fpm($fpmBinary, array_merge($ini, ['zend_extension=opcache', 'opcache.enable=1', 'opcache.validate_timestamps=1', 'opcache.revalidate_freq=0',
    'opcache.file_update_protection=0']), 1);
try {
    $seen = [];
    foreach (['store', '', '', 'change', '', ''] as $op) {
        $seen[] = json_decode($fpm->client->get("$printDir/print.php", "op=$op")[1], true);
    }
    $before = ['int 5, string five', 'int 6, string six'];
    $after = 'TypeError: Cannot assign int to property KeptPrintPoint::$x of type string';
    check('OPcache: shapes kept for the worker are resolved again once opcache_reset() brought the class back retyped: a stored int does not land in a property now typed string',
        $seen === [$before, $before, $before, true, $after, $after], json_encode($seen) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check('OPcache: shapes kept for the worker are resolved again once opcache_reset() brought the class back retyped: a stored int does not land in a property now typed string', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();
exec('rm -rf ' . escapeshellarg($printDir));

// A named segment: bin/resident, a separate CLI process, acts on what the
// workers see while they serve.
$segment = 'fpmtest-' . getmypid() . '-' . bin2hex(random_bytes(3));
$fpm = new Fpm($fpmBinary, array_merge($ini, ["resident.segment=$segment"]));
$cli = function (string ...$args) use ($segment, $ext): array {
    $cmd = array_merge([PHP_BINARY, '-n', dirname(__DIR__, 2) . '/bin/resident', "--segment=$segment", "--extension=$ext", '--pool=fpm'], $args);
    $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    return [proc_close($proc), trim($out)];
};
try {
    $steps = [];
    call($fpm, 'op=store&key=site:1&value=one');
    call($fpm, 'op=store&key=site:2&value=two');
    call($fpm, 'op=store&key=other&value=3');
    [$rc, $keys] = $cli('keys', 'site:');
    $keys = explode("\n", $keys);
    sort($keys);
    $steps['keys'] = $rc === 0 && $keys === ['site:1', 'site:2'];
    $steps['get'] = $cli('get', 'site:2') === [0, "'two'"];
    $steps['get missing'] = $cli('get', 'nope')[0] === 1;
    $steps['delete'] = $cli('delete', 'site:1') === [0, '1'] && call($fpm, 'op=fetch&key=site:1')[0] === 'MISS'
        && call($fpm, 'op=fetch&key=site:2')[0] === 'two';
    $steps['clear'] = $cli('clear')[0] === 0 && call($fpm, 'op=fetch&key=site:2')[0] === 'MISS'
        && call($fpm, 'op=fetch&key=other')[0] === 'MISS';
    $warm = $fpm->dir . '/warm.php';
    file_put_contents($warm, '<?php Resident\Cache::pool("fpm")->store("warmed", "by the CLI");');
    $seen = [];
    $steps['warm'] = $cli('warm', $warm) === [0, 'warmed: 1 stores'];
    for ($i = 0; $i < 10; $i++) {
        [$v, $pid] = call($fpm, 'op=fetch&key=warmed');
        $steps['warm'] = $steps['warm'] && $v === 'by the CLI';
        $seen[$pid] = true;
    }
    [$rc, $watch] = $cli('watch', '--interval=0.1', '--count=2');
    $steps['watch'] = $rc === 0 && count(explode("\n", $watch)) === 3 && str_starts_with($watch, 'time');
    [$rc, $metrics] = $cli('metrics');
    $steps['metrics'] = $rc === 0 && str_contains($metrics, "\nresident_up 1\n") && str_contains($metrics, 'resident_pool_entries{pool="fpm"}');
    $steps['forget-statics'] = $cli('forget-statics') === [0, '0'];
    [$rc, $status] = $cli('--json', 'status');
    $steps['status'] = $rc === 0 && (json_decode($status, true)['segment'] ?? '') === "/dev/shm/resident-$segment";
    // Loaded with php -d extension=... (no php.ini): the re-run keeps it.
    $proc = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", dirname(__DIR__, 2) . '/bin/resident', "--segment=$segment", '--pool=fpm', 'get', 'warmed'],
        [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $steps['php -d extension='] = proc_close($proc) === 0 && trim($out) === "'by the CLI'";
    $failedSteps = array_keys(array_filter($steps, fn ($ok) => !$ok));
    check('a named segment: bin/resident keys, get, delete, clear and warm act on what the workers see',
        !$failedSteps && count($seen) >= 1, 'failed steps: ' . implode(', ', $failedSteps) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check('a named segment: bin/resident keys, get, delete, clear and warm act on what the workers see', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();
@unlink("/dev/shm/resident-$segment");

// What php-fpm may replace at resident.segment when nobody is attached to
// it: a segment of its own user made with another value encoding (or
// layout, or build), never a file that is not a Resident segment.
$replace = 'php-fpm replaces a segment of another value encoding nobody is attached to';
$keep = 'php-fpm leaves a file at resident.segment that is not a Resident segment as it is, and says why';
try {
    $segment = 'fpmrepl-' . getmypid();
    $file = "/dev/shm/resident-$segment";
    exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'resident.enable_cli=1',
        '-d', "resident.segment=$segment", '-d', 'resident.memory=64M', '-r', 'Resident\Cache::pool("fpm")->store("old", "from before");'])));
    // Stamped as a build of the next encoding would (the header checksum, src/store/internal.h, made to match).
    $header = file_get_contents($file, false, null, 0, 160);
    $encoding = unpack('V', $header, 16)[1];
    $header = substr_replace($header, pack('V', $encoding + 1), 16, 4);
    $header = substr_replace($header, strrev(hash('fnv1a64', substr($header, 8, 144), true)), 152, 8);
    $f = fopen($file, 'r+');
    fwrite($f, $header);
    fclose($f);
    $fpm = new Fpm($fpmBinary, array_merge($ini, ["resident.segment=$segment"]));
    [$s] = call($fpm, 'op=status');
    [$old] = call($fpm, 'op=fetch&key=old');
    clearstatcache();
    $now = unpack('V', file_get_contents($file, false, null, 0, 20), 16)[1];
    check($replace, $s['available'] === true && $old === 'MISS' && $now === $encoding && (fileperms($file) & 0777) === 0600,
        json_encode([$s['available'], $s['reason'] ?? null, $old, $encoding, $now]) . "\n" . $fpm->log());
    $fpm->stop();
    @unlink($file);
} catch (Throwable $e) {
    check($replace, false, $e->getMessage() . (isset($fpm) ? "\n" . $fpm->log() : ''));
}
try {
    $file = sys_get_temp_dir() . '/resident-fpm-not-a-segment-' . getmypid();
    file_put_contents($file, "precious data\n");
    chmod($file, 0600);
    $fpm = new Fpm($fpmBinary, array_merge($ini, ["resident.segment=$file"]));
    [$s] = call($fpm, 'op=status');
    clearstatcache();
    $why = "cannot create the segment: cannot use $file: it is not a Resident segment (left as it is)";
    check($keep, $s['available'] === false && $s['reason'] === $why && file_get_contents($file) === "precious data\n"
        && str_contains($fpm->log(), "Resident is disabled: $why"), json_encode([$s['available'], $s['reason'] ?? null, filesize($file)]) . "\n" . $fpm->log());
    $fpm->stop();
    @unlink($file);
} catch (Throwable $e) {
    check($keep, false, $e->getMessage() . (isset($fpm) ? "\n" . $fpm->log() : ''));
}

// Two pools under two users, resident.segment=...-%pool%: each pool's
// workers open their own segment, as their own user, and have no mapping of
// the other pool's memory.
$isolation = 'per-pool segments: a worker of one pool cannot read, open or map another pool\'s segment';
try {
    foreach (['resident-a', 'resident-b'] as $user) {
        if (posix_getpwnam($user) === false) {
            exec('useradd --system --no-create-home --shell /usr/sbin/nologin ' . escapeshellarg($user) . ' 2>&1', $out, $rc);
            if ($rc !== 0) {
                throw new RuntimeException("cannot create user $user: " . implode("\n", $out));
            }
        }
    }
    // Both ways to name a pool's segment: %pool%, and each pool's own
    // php_admin_value (the master then has an anonymous segment, which the
    // workers must drop).
    foreach (['%pool%', 'php_admin_value'] as $how) {
        $tag = 'iso' . getmypid() . ($how === '%pool%' ? 'p' : 'v');
        $fileA = "/dev/shm/resident-$tag-test";
        $fileB = "/dev/shm/resident-$tag-other";
        $fpm = $how === '%pool%'
            ? new Fpm($fpmBinary, array_merge($ini, ["resident.segment=$tag-%pool%"]), 2,
                ['user' => 'resident-a', 'group' => 'resident-a'], ['other' => ['user' => 'resident-b', 'group' => 'resident-b']])
            : new Fpm($fpmBinary, $ini, 2,
                ['user' => 'resident-a', 'group' => 'resident-a', 'php_admin_value[resident.segment]' => "$tag-test"],
                ['other' => ['user' => 'resident-b', 'group' => 'resident-b', 'php_admin_value[resident.segment]' => "$tag-other"]]);
        $script = __DIR__ . '/www/isolation.php';
        $a = fn (string $q) => json_decode($fpm->client->get($script, $q)[1], true);
        $b = fn (string $q) => json_decode($fpm->clients['other']->get($script, $q)[1], true);
        $stored = $a('op=store&key=secret&value=from+A');
        $readA = $a('op=fetch&key=secret');
        $readB = $b('op=fetch&key=secret');
        $b('op=store&key=mine&value=from+B');
        $whoA = $a('op=whoami&other=' . urlencode($fileB));
        $whoB = $b('op=whoami&other=' . urlencode($fileA));
        $ownerA = posix_getpwuid(fileowner($fileA))['name'] ?? '?';
        $ownerB = posix_getpwuid(fileowner($fileB))['name'] ?? '?';
        $ok = $stored === true && $readA === 'from A' && $readB === 'MISS' && $a('op=fetch&key=mine') === 'MISS'
            && $whoA['uid'] === posix_getpwnam('resident-a')['uid'] && $whoA['segment'] === $fileA && $whoA['mapped'] === [$fileA]
            && !$whoA['can_open_other'] && $whoA['anonymous_segments'] === 0
            && $whoB['uid'] === posix_getpwnam('resident-b')['uid'] && $whoB['segment'] === $fileB && $whoB['mapped'] === [$fileB]
            && !$whoB['can_open_other'] && $whoB['anonymous_segments'] === 0
            && $ownerA === 'resident-a' && $ownerB === 'resident-b'
            && (fileperms($fileA) & 0777) === 0600 && (fileperms($fileB) & 0777) === 0600;
        check("$isolation ($how)", $ok, json_encode([$stored, $readA, $readB, $whoA, $whoB, $ownerA, $ownerB]) . "\n" . $fpm->log());
        $fpm->stop();
        @unlink($fileA);
        @unlink($fileB);
    }
} catch (Throwable $e) {
    check($isolation, false, $e->getMessage() . (isset($fpm) ? "\n" . $fpm->log() : ''));
}

// Warm restart: bin/resident dump, php-fpm stopped and its segment gone (a
// reboot), php-fpm started with resident.restore_on_start: the first
// request hits. A truncated or foreign dump is refused whole.
$warm = 'a dump restored by resident.restore_on_start: the first request after a restart hits';
try {
    $segment = 'warm-' . getmypid();
    $dump = sys_get_temp_dir() . "/resident-$segment.dump";
    $fpm = new Fpm($fpmBinary, array_merge($ini, ["resident.segment=$segment"]));
    // The class files outlive the restarts (a snapshot is only valid for the file it was taken from).
    $dir = sys_get_temp_dir() . "/resident-$segment-classes";
    @mkdir($dir);
    statics_classes($dir);
    call($fpm, 'op=store_rich');
    statics_call($fpm, $dir, 'op=add&item=kept');
    [$rc, $out] = $cli('--segment=' . $segment, 'dump', $dump);
    $fpm->stop();
    @unlink("/dev/shm/resident-$segment");
    $dumped = $rc === 0 && str_starts_with($out, 'dumped ');
    foreach (['named segment' => ["resident.segment=$segment"], 'anonymous segment' => []] as $kind => $segIni) {
        $fpm = new Fpm($fpmBinary, array_merge($ini, $segIni, ["resident.restore_on_start=$dump"]));
        [$first] = call($fpm, 'op=fetch_rich');
        [$items] = statics_call($fpm, $dir, 'op=read');
        $ok = $dumped && $first['array'] === '5050|1.5' && $first['object'] === '2026-11-22T05:00:00+01:00 Europe/Paris|1|true'
            && $first['restored_at_start'] >= 3 && $items === ['kept'];
        check("$warm ($kind)", $ok, json_encode([$out, $first, $items]) . "\n" . $fpm->log());
        $fpm->stop();
        @unlink("/dev/shm/resident-$segment");
    }
    $bad = ['truncated' => substr(file_get_contents($dump), 0, (int)(filesize($dump) * 0.7)), 'foreign' => str_repeat('not a dump ', 100)];
    foreach ($bad as $kind => $bytes) {
        file_put_contents("$dump.bad", $bytes);
        $fpm = new Fpm($fpmBinary, array_merge($ini, ["resident.restore_on_start=$dump.bad"]));
        [$first] = call($fpm, 'op=fetch_rich');
        $log = $fpm->log();
        $why = $kind === 'truncated' ? 'is refused: it is truncated' : 'is refused: it is not a Resident dump';
        check("a $kind dump is refused with a clear message, and php-fpm starts empty",
            $first['array'] === 'MISS' && $first['restored_at_start'] === null && str_contains($log, $why), json_encode($first) . "\n" . $log);
        $fpm->stop();
    }
    @unlink($dump);
    @unlink("$dump.bad");
    exec('rm -rf ' . escapeshellarg($dir));
} catch (Throwable $e) {
    check($warm, false, $e->getMessage() . (isset($fpm) ? "\n" . $fpm->log() : ''));
}

// Recycled workers (pm.max_requests) keep seeing the same segment.
$fpm = new Fpm($fpmBinary, $ini, 2, ['pm.max_requests' => 3]);
try {
    call($fpm, 'op=store&key=k&value=survives');
    $ok = true;
    $pids = [];
    for ($i = 0; $i < 20; $i++) {
        [$v, $pid] = call($fpm, 'op=fetch&key=k');
        $ok = $ok && $v === 'survives';
        $pids[$pid] = true;
    }
    check('workers recycled by pm.max_requests share the segment', $ok && count($pids) > 2,
        'values ok: ' . var_export($ok, true) . ', distinct worker pids: ' . count($pids));
} catch (Throwable $e) {
    check('workers recycled by pm.max_requests share the segment', false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();

// A pool's php_admin_value[resident.zero_copy], [resident.direct_classes] and
// [resident.request_over_static_classes] apply to that pool only (set in
// its workers, after the master's startup).
$fpm = new Fpm($fpmBinary, $ini, 1, [], ['copying' => ['php_admin_value[resident.zero_copy]' => '0',
    'php_admin_value[resident.direct_classes]' => 'Hooked', 'php_admin_value[resident.request_over_static_classes]' => 'Visits']]);
try {
    [$s] = call($fpm, 'op=store&key=pooled&value=one');
    [, $body] = $fpm->clients['copying']->get($www, 'op=status');
    $copying = json_decode($body, true);
    [, $body] = $fpm->clients['copying']->get($www, 'op=fetch&key=pooled');
    [$borrowing] = call($fpm, 'op=status');
    check("a pool's php_admin_value[resident.zero_copy]=0 copies in that pool, the others borrow",
        $borrowing['zero_copy'] === 'borrow' && ($copying['zero_copy'] ?? '') === 'copy' && $body === '"one"',
        json_encode([$borrowing['zero_copy'], $copying['zero_copy'] ?? $copying, $body]));
    $settings = __DIR__ . '/www/pool_settings.php';
    $own = $other = [];
    for ($i = 0; $i < 3; $i++) {
        $own[] = json_decode($fpm->clients['copying']->get($settings, '')[1], true);
        $other[] = json_decode($fpm->client->get($settings, '')[1], true);
    }
    check("a pool's php_admin_value[resident.direct_classes] and [resident.request_over_static_classes] apply in that pool only",
        array_column($own, 'hook_calls') === [0, 0, 0] && array_column($own, 'visits') === [1, 2, 3]
        && array_column($other, 'hook_calls') === [1, 1, 1] && array_column($other, 'visits') === [1, 1, 1],
        json_encode([$own, $other]) . "\n" . $fpm->log());
} catch (Throwable $e) {
    check("a pool's php_admin_value[resident.zero_copy]=0 copies in that pool, the others borrow", false, $e->getMessage() . "\n" . $fpm->log());
}
$fpm->stop();

// UserCache\Cache: reads across workers, php-fpm pools apart, locks across
// workers (tests/fpm/usercache.php).
foreach (require __DIR__ . '/usercache.php' as $name => $test) {
    $fpm = new Fpm($fpmBinary, $ini, 2, [], ['other' => []]);
    try {
        [$ok, $detail] = $test($fpm);
        check($name, $ok, $detail . ($ok ? '' : "\n" . substr($fpm->log(), -3000)));
    } catch (Throwable $e) {
        check($name, false, $e->getMessage() . "\n" . substr($fpm->log(), -3000));
    }
    $fpm->stop();
}

printf("fpm integration: %d passed, %d failed\n", $passed, $failed);
exit($failed ? 1 : 0);
