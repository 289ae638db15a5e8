<?php
/*
 * RequestOverStatic under php-fpm: two workers (pm=static), the extension
 * loaded, with and without OPcache + JIT. Called by run.php: returns the
 * tests as name => fn(Fpm, string $dir): [bool, detail].
 */

/* A request to an endpoint of www/ (statics.php, or another that takes
 * dir= and answers op=sleep as it does). */
function statics_call(Fpm $fpm, string $dir, string $query, string $endpoint = 'statics.php'): array
{
    [$headers, $body] = $fpm->client->get(__DIR__ . "/www/$endpoint", $query . '&dir=' . urlencode($dir));
    return [json_decode($body, true) ?? $body, (int)($headers['x-pid'] ?? 0)];
}

/* A request on its own connection, in the background. */
function statics_background(Fpm $fpm, string $dir, string $query, string $endpoint = 'statics.php')
{
    $code = sprintf('require %s; (new FastCgi(%s))->get(%s, %s);', var_export(__DIR__ . '/FastCgi.php', true),
        var_export($fpm->dir . '/fpm.sock', true), var_export(__DIR__ . "/www/$endpoint", true),
        var_export($query . '&dir=' . urlencode($dir), true));
    return proc_open([PHP_BINARY, '-r', $code], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
}

/*
 * Calls $query until a worker other than $writer answers it: one worker is
 * kept busy while it is sent. Returns [answer, that worker's pid, how many
 * calls it took] (the calls before went to the writer).
 */
function statics_call_other(Fpm $fpm, string $dir, string $query, int $writer, string $endpoint = 'statics.php'): array
{
    $answer = $reader = null;
    for ($i = 0; $i < 20 && ($reader === null || $reader === $writer); $i++) {
        $sleeper = statics_background($fpm, $dir, 'op=sleep&ms=400', $endpoint);
        usleep(100000);
        [$answer, $reader] = statics_call($fpm, $dir, $query, $endpoint);
        proc_close($sleeper);
    }
    return [$answer, $reader, $i];
}

function statics_classes(string $dir): void
{
    file_put_contents("$dir/Catalog.php", '<?php
#[Resident\RequestOverStatic]
final class Catalog { public static array $items = []; }
');
    file_put_contents("$dir/Registry.php", '<?php
#[Resident\RequestOverStatic]
final class Registry { public static array $items = []; }
');
    file_put_contents("$dir/Item.php", '<?php
final class Item {
    public ?Item $next = null;
    public array $tags = [];
    public function __construct(public string $name) {}
}
');
    file_put_contents("$dir/Members.php", '<?php
final class Members {
    #[Resident\RequestOverStatic]
    public static array $kept = [];
    public static array $notKept = [];
    #[Resident\RequestOverStatic]
    public static function tally(): int { static $n = 0; return ++$n; }
}
');
    file_put_contents("$dir/Live.php", '<?php
final class Live {
    #[Resident\RequestOverStatic(publish: "immediate")]
    public static array $now = [];
    #[Resident\RequestOverStatic]
    public static array $atEnd = [];
}
');
    // A version number and 2,000 copies of it: any mix of two versions is torn.
    file_put_contents("$dir/Ledger.php", '<?php
#[Resident\RequestOverStatic]
final class Ledger {
    public static int $version = 0;
    public static array $rows = [];
    public static function check(): bool {
        foreach (self::$rows as $r) { if ($r["v"] !== self::$version || $r["tag"] !== "v" . self::$version) return false; }
        return count(self::$rows) === (self::$version ? 2000 : 0);
    }
    public static function rewrite(int $salt): void {
        $v = self::$version + 1 + $salt * 10000;
        self::$rows = [];
        for ($i = 0; $i < 2000; $i++) self::$rows[] = ["v" => $v, "tag" => "v$v"];
        self::$version = $v;
    }
}
');
}

return [
    'a static written in one request is seen by the next request on the other worker' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        [$first, $writer] = statics_call($fpm, $dir, 'op=add&item=a');
        [$items, $reader] = statics_call_other($fpm, $dir, 'op=read', $writer);
        [$second] = statics_call($fpm, $dir, 'op=add&item=b');
        return [$first === ['a'] && $reader !== $writer && $items === ['a'] && $second === ['a', 'b'],
            json_encode([$first, $writer, $reader, $items, $second])];
    },
    // Under OPcache, the other worker loads the class compiled by the first
    // one from shared memory, without compiling it: it must still look at
    // the attributes of its members.
    'property and method scopes: written in one request, seen by the next on the other worker' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        // Older than opcache.file_update_protection: OPcache keeps it at once.
        touch("$dir/Members.php", time() - 10);
        [$first, $writer] = statics_call($fpm, $dir, 'op=members&item=a');
        [$second, $reader, $i] = statics_call_other($fpm, $dir, 'op=members&item=b', $writer);
        return [$first === [['a'], ['a'], 1] && $reader !== $writer && ($second[0] ?? null) === array_merge(['a'], array_fill(0, $i, 'b'))
            && ($second[1] ?? null) === ['b'] && ($second[2] ?? null) === $i + 1,
            json_encode([$first, $writer, $reader, $second, $i])];
    },
    // The holding request waits (on a file) after its writes: what another
    // worker sees meanwhile was published before that request ended.
    'publish: immediate: a property write reaches the other worker before the writing request ends; the other scopes at its end' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        $holder = statics_background($fpm, $dir, 'op=hold&item=a');
        for ($i = 0; $i < 1000 && !is_file("$dir/held"); $i++) {
            usleep(10000);
        }
        $writer = (int)@file_get_contents("$dir/held");
        [$during, $reader] = statics_call($fpm, $dir, 'op=live');
        touch("$dir/release");
        proc_close($holder);
        [$after] = statics_call($fpm, $dir, 'op=live');
        return [$writer > 0 && $reader !== $writer && $during === [['a'], [], []] && $after === [['a'], ['a'], ['a']],
            json_encode([$writer, $reader, $during, $after])];
    },
    'a read-only request does not republish' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        statics_call($fpm, $dir, 'op=add&item=a');
        [$before] = statics_call($fpm, $dir, 'op=status');
        for ($i = 0; $i < 10; $i++) {
            statics_call($fpm, $dir, 'op=read');
        }
        [$after] = statics_call($fpm, $dir, 'op=status');
        return [$before['publishes'] === 1 && $after['publishes'] === 1 && $after['restores'] >= 10,
            json_encode([$before, $after])];
    },
    'a class-file edit drops the snapshot' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        statics_call($fpm, $dir, 'op=add&item=a');
        [$kept] = statics_call($fpm, $dir, 'op=read');
        // Same class, one more line: mtime and size change.
        sleep(1);
        file_put_contents("$dir/Catalog.php", file_get_contents("$dir/Catalog.php") . "// edited\n");
        $after = [];
        for ($i = 0; $i < 4; $i++) {
            [$after[]] = statics_call($fpm, $dir, 'op=read');
        }
        [$added] = statics_call($fpm, $dir, 'op=add&item=b');
        return [$kept === ['a'] && $after === [[], [], [], []] && $added === ['b'], json_encode([$kept, $after, $added])];
    },
    'forgetStatics() in one worker drops the state for both' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        statics_call($fpm, $dir, 'op=add&item=a');
        [$n] = statics_call($fpm, $dir, 'op=forget&class=Catalog');
        $after = [];
        for ($i = 0; $i < 4; $i++) {
            [$after[]] = statics_call($fpm, $dir, 'op=read');
        }
        return [$n === 1 && $after === [[], [], [], []], json_encode([$n, $after])];
    },
    'objects come back as shells: a request fills only those it uses, and one that only read them does not republish' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        [$built, $builder] = statics_call($fpm, $dir, 'op=registry_build');
        $ok = $built === 200;
        $reads = [];
        for ($i = 0; $i < 7; $i++) {
            // The last read is made on the worker that did not build (php-fpm
            // may give any number of requests in a row to one worker).
            [$r] = $reads[] = $i < 6 ? statics_call($fpm, $dir, 'op=registry_read&i=' . (10 + $i))
                : statics_call_other($fpm, $dir, 'op=registry_read&i=' . (10 + $i), $builder);
            $ok = $ok && $r === ['name' => 'item' . (10 + $i), 'next' => 'item' . (11 + $i), 'tags' => ['t' . (10 + $i)],
                'shells' => 200, 'filled' => 2, 'publishes' => 1];
        }
        [$renamed, $renamer] = statics_call($fpm, $dir, 'op=registry_rename&i=12&name=renamed');
        $after = [];
        for ($i = 0; $i < 5; $i++) {
            // The last one on the worker that did not rename.
            [$r] = $after[] = $i < 4 ? statics_call($fpm, $dir, 'op=registry_read&i=11')
                : statics_call_other($fpm, $dir, 'op=registry_read&i=11', $renamer);
            $ok = $ok && $r['next'] === 'renamed' && $r['publishes'] === 2;
        }
        $ok = $ok && $reads[6][1] !== $builder && $after[4][1] !== $renamer;
        return [$ok && $renamed === 'renamed', json_encode([$built, $builder, $reads, $renamed, $renamer, $after])];
    },
    'under load, both workers rewriting a persisted array never see it torn' => function (Fpm $fpm, string $dir) {
        statics_classes($dir);
        $sock = $fpm->dir . '/fpm.sock';
        $clients = [];
        for ($c = 0; $c < 4; $c++) {
            $out = "$fpm->dir/client$c.json";
            $code = sprintf('require %s; $f = new FastCgi(%s); $end = microtime(true) + 3; $n = $torn = 0; $versions = $other = [];
                while (microtime(true) < $end) { [$h, $b] = $f->get(%s, %s); $r = json_decode($b, true);
                    if (!is_array($r)) { $other[] = [$h, $b]; continue; } $n++; $torn += $r["whole"] ? 0 : 1; $versions[$r["version"]] = 1; }
                file_put_contents(%s, json_encode(["n" => $n, "torn" => $torn, "versions" => count($versions), "other" => array_slice($other, 0, 3), "others" => count($other)]));',
                var_export(__DIR__ . '/FastCgi.php', true), var_export($sock, true),
                var_export(__DIR__ . '/www/statics.php', true), var_export('op=churn&dir=' . urlencode($dir), true),
                var_export($out, true));
            $clients[$out] = proc_open([PHP_BINARY, '-r', $code], [1 => ['file', '/dev/null', 'w'], 2 => ['file', "$out.err", 'w']], $pipes);
        }
        // An answer that is not the script's JSON (a warning, an error
        // page) or a client that failed is shown whole and fails the test:
        // it is not counted as a torn read, which only a JSON answer shows.
        $total = $torn = $others = 0;
        $detail = [];
        foreach ($clients as $out => $proc) {
            proc_close($proc);
            $r = json_decode((string)@file_get_contents($out), true) ?? ['n' => 0, 'torn' => 0, 'versions' => 0, 'others' => 1, 'client failed' => @file_get_contents("$out.err")];
            $total += $r['n'];
            $torn += $r['torn'];
            $others += $r['others'] ?? 0;
            $detail[] = $r;
        }
        [$status] = statics_call($fpm, $dir, 'op=status');
        return [$total > 50 && $torn === 0 && $others === 0 && $status['publishes'] > 50, json_encode([$total, $torn, $others, $status, $detail])];
    },
];
