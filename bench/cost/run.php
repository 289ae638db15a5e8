<?php
/*
 * What Resident costs every request (issue 24): instructions per request,
 * counted by callgrind on `php-cgi -T N` (OPcache on), for a generated app
 * that links a few hundred classes: without the extension, loaded and
 * unused, loaded with resident.request_over_static_classes listing classes
 * the app does not link, and listing three it links (each with a small table
 * in a static, restored by every request); each without and with
 * opcache.preload. Then an app that builds a route table and a container's
 * definitions in statics, per request without Resident and kept by
 * RequestOverStatic. Per request = (total of T=12 - total of T=2) / 10, so
 * that startup and shutdown cancel out. Deterministic: one run of each.
 *
 *   php8.2 -n bench/cost/run.php [--classes=N] [--out=DIR] [--ext=resident.so]
 */
$opts = ['classes' => 300, 'out' => dirname(__DIR__) . '/results',
    'ext' => dirname(__DIR__, 2) . '/build/php-8.2/modules/resident.so', 'cgi' => '/usr/bin/php-cgi8.2'];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
$n = (int)$opts['classes'];
foreach (['/usr/bin/valgrind', $opts['cgi']] as $tool) {
    if (!is_executable($tool)) {
        fwrite(STDERR, "needs $tool (scripts/install-deps.sh installs it)\n");
        exit(1);
    }
}
if (!is_file($opts['ext'])) {
    fwrite(STDERR, "no extension at {$opts['ext']}: build it first (scripts/build-ext.sh)\n");
    exit(1);
}

$dir = sys_get_temp_dir() . '/resident-bench-cost-' . getmypid();
mkdir($dir);
register_shutdown_function(function () use ($dir) {
    foreach (glob("$dir/*") ?: [] as $f) {
        unlink($f);
    }
    rmdir($dir);
});

/* The classes app: Base implements I; 10 files of $n/10 final classes
 * extending Base (bound when the file loads), and in each file but the
 * first one class extending a class of the previous file (declared at run
 * time when its parent is not loaded yet). An autoloader maps a class to
 * its file; the script instantiates every class. */
$perFile = intdiv($n, 10);
$map = [];
file_put_contents("$dir/base.php", "<?php\ninterface I { public function id(): int; }\nabstract class Base implements I {\n    public int \$x = 1;\n    public function id(): int { return \$this->x; }\n}\n");
for ($f = 0; $f < 10; $f++) {
    $code = "<?php\n";
    for ($i = 0; $i < $perFile; $i++) {
        $name = "C{$f}_$i";
        $parent = $f > 0 && $i === 0 ? 'C' . ($f - 1) . '_1' : 'Base';
        $final = $i === 1 ? '' : 'final ';
        // Every tenth class builds a small table in a static on first use.
        $table = $i % 10 === 5 ? ' public static array $table = []; public static function table() { return self::$table ?: self::$table = array_fill(0, 20, "x"); }' : '';
        $code .= "{$final}class $name extends $parent { public \$p = $i; public function m(\$a) { return \$a + $i; }$table }\n";
        $map[$name] = "part$f.php";
    }
    file_put_contents("$dir/part$f.php", $code);
}
$mapCode = var_export($map + ['Base' => 'base.php', 'I' => 'base.php'], true);
file_put_contents("$dir/classes.php", "<?php\n\$map = $mapCode;\n"
    . "spl_autoload_register(function (\$c) use (\$map) { require __DIR__ . '/' . \$map[\$c]; });\n"
    . "\$sum = 0;\nforeach (\$map as \$c => \$file) { if (\$c !== 'Base' && \$c !== 'I') { \$o = new \$c(); \$sum += \$o->m(1); if (isset(\$c::\$table)) { \$sum += count(\$c::table()) - 20; } } }\n"
    . "echo \$sum === " . array_sum(array_map(fn ($c) => 1 + (int)explode('_', $c)[1], array_keys($map))) . " ? 'ok' : 'wrong';\n");
file_put_contents("$dir/preload-classes.php", "<?php\nrequire __DIR__ . '/base.php';\nfor (\$f = 0; \$f < 10; \$f++) { require __DIR__ . \"/part\$f.php\"; }\n");

/* The statics app: a FastRoute-like route table (300 patterns compiled into
 * grouped regular expressions) and a container's definitions (each of 60
 * services' constructor read by reflection), both built on first use and
 * held in statics; a request dispatches one route and makes one service. */
$routes = [];
for ($i = 0; $i < 300; $i++) {
    $routes[] = ['GET', "/section$i/{id:\\d+}/item/{slug}", "handler$i"];
}
$services = '';
for ($i = 0; $i < 60; $i++) {
    $dep = $i > 0 ? "public Service" . ($i - 1) . " \$dep, " : "";
    $services .= "final class Service$i { public function __construct({$dep}public int \$n = $i, string \$name = 's$i') {} }\n";
}
file_put_contents("$dir/statics-classes.php", "<?php\n" . $services . <<<'PHP'
final class Routes {
    public static ?array $table = null;
    public static function table(array $routes): array {
        if (self::$table !== null) {
            return self::$table;
        }
        $groups = [];
        foreach (array_chunk($routes, 10) as $chunk) {
            $regexes = [];
            $handlers = [];
            foreach ($chunk as $k => [$method, $pattern, $handler]) {
                preg_match_all('~\{(\w+)(?::([^}]+))?\}~', $pattern, $m, PREG_SET_ORDER);
                $regex = $pattern;
                $vars = [];
                foreach ($m as $p) {
                    $vars[] = $p[1];
                    $regex = str_replace($p[0], '(' . ($p[2] ?? '[^/]+') . ')', $regex);
                }
                $regexes[] = $regex . str_repeat('()', $k);
                $handlers[count($vars) + $k + 1] = [$handler, $vars];
            }
            $groups[] = ['~^(?|' . implode('|', $regexes) . ')$~', $handlers];
        }
        return self::$table = $groups;
    }
    public static function dispatch(array $routes, string $uri): ?array {
        foreach (self::table($routes) as [$regex, $handlers]) {
            if (preg_match($regex, $uri, $m)) {
                [$handler, $vars] = $handlers[count($m)];
                return [$handler, array_combine($vars, array_slice($m, 1, count($vars)))];
            }
        }
        return null;
    }
}
final class Container {
    public static array $definitions = [];
    public static function definition(string $class): array {
        if (!isset(self::$definitions[$class])) {
            foreach ((new ReflectionClass($class))->getConstructor()?->getParameters() ?? [] as $p) {
                $type = $p->getType();
                $dep = $type instanceof ReflectionNamedType && !$type->isBuiltin() ? $type->getName() : null;
                if ($dep !== null) {
                    self::definition($dep);
                }
                self::$definitions[$class][] = [$p->getName(), $dep, $p->isDefaultValueAvailable() ? $p->getDefaultValue() : null];
            }
        }
        return self::$definitions[$class];
    }
    public static function make(string $class): object {
        $args = [];
        foreach (self::definition($class) as [$name, $dep, $default]) {
            $args[] = $dep !== null ? self::make($dep) : $default;
        }
        return new $class(...$args);
    }
}
PHP);
file_put_contents("$dir/statics.php", "<?php\nrequire __DIR__ . '/statics-classes.php';\n\$routes = " . var_export($routes, true) . ";\n"
    . "[\$h, \$vars] = Routes::dispatch(\$routes, '/section250/42/item/hello');\n"
    . "\$s = Container::make('Service59');\n"
    . "echo \$h === 'handler250' && \$vars === ['id' => '42', 'slug' => 'hello'] && \$s->dep->n === 58 ? 'ok' : 'wrong';\n");
foreach (glob("$dir/*.php") as $file) {
    // Older than opcache.file_update_protection: cached at once.
    touch($file, time() - 10);
}

/* Instructions php-cgi runs for $requests requests of $script. */
function instructions(array $opts, string $dir, string $script, array $ini, int $requests): int
{
    $out = "$dir/callgrind.out";
    $args = ['-n', '-d', 'zend_extension=opcache.so', '-d', 'opcache.enable=1', '-d', 'opcache.enable_cli=1',
        '-d', 'memory_limit=256M'];
    foreach ($ini as $line) {
        $args[] = '-d';
        $args[] = $line;
    }
    $cmd = 'valgrind --tool=callgrind --callgrind-out-file=' . escapeshellarg($out) . ' ' . escapeshellarg($opts['cgi']) . ' '
        . implode(' ', array_map('escapeshellarg', $args)) . " -q -T $requests " . escapeshellarg("$dir/$script") . ' 2>&1';
    $body = shell_exec($cmd);
    if (substr_count((string)$body, 'ok') !== $requests || !preg_match('/^(?:summary|totals): (\d+)/m', (string)@file_get_contents($out), $m)) {
        fwrite(STDERR, "the run failed: $cmd\n$body\n");
        exit(1);
    }
    unlink($out);
    return (int)$m[1];
}

function perRequest(array $opts, string $dir, string $script, array $ini): int
{
    return intdiv(instructions($opts, $dir, $script, $ini, 12) - instructions($opts, $dir, $script, $ini, 2), 10);
}

$ext = "extension={$opts['ext']}";
$preload = ["opcache.preload=$dir/preload-classes.php", 'opcache.preload_user=root'];
$unlinked = 'resident.request_over_static_classes=Vendor\NotLinked,Other\Missing,GPBMetadata\*';
$linked = 'resident.request_over_static_classes=C1_5,C4_15,C9_25';
$configs = [
    ['classes.php', 'no Resident', []],
    ['classes.php', 'Resident loaded, unused', [$ext]],
    ['classes.php', 'unused, request_over_static_classes lists classes not linked', [$ext, $unlinked]],
    ['classes.php', 'request_over_static_classes lists 3 classes it links', [$ext, $linked]],
    ['classes.php', 'preloaded: no Resident', $preload],
    ['classes.php', 'preloaded: Resident loaded, unused', array_merge([$ext], $preload)],
    ['classes.php', 'preloaded: unused, request_over_static_classes lists classes not linked', array_merge([$ext, $unlinked], $preload)],
    ['classes.php', 'preloaded: request_over_static_classes lists 3 classes it links', array_merge([$ext, $linked], $preload)],
    ['statics.php', 'route table and container built per request, no Resident', []],
    ['statics.php', 'route table and container kept by RequestOverStatic', [$ext, 'resident.request_over_static_classes=Routes,Container']],
];
/* php-cgi parses its command line again for every request (-T): every
 * configuration gets as many -d options, so that the options themselves
 * cost all of them about the same. */
$most = max(array_map(fn ($c) => count($c[2]), $configs));
foreach ($configs as &$config) {
    for ($i = count($config[2]); $i < $most; $i++) {
        $config[2][] = "bench_pad$i=" . str_repeat('x', 40);
    }
}
unset($config);
$results = [];
foreach ($configs as [$script, $name, $ini]) {
    $results[$name] = perRequest($opts, $dir, $script, $ini);
    fprintf(STDERR, "%s: %s instructions per request\n", $name, number_format($results[$name]));
}

$lines = [];
$lines[] = sprintf('%s, %s, PHP %s, `php-cgi -T` (OPcache on), callgrind over the whole process, per request = (T=12 - T=2) / 10.',
    date('Y-m-d H:i'), php_uname('n'), PHP_VERSION);
$lines[] = "The classes app autoloads and instantiates $n classes from 10 files (one class per file extends one of the file before, declared at run time; every tenth keeps a 20-element table in a static); the statics app builds a 300-route table and 60 services' definitions in statics.";
$lines[] = '';
$lines[] = '| configuration | instructions per request | vs no Resident |';
$lines[] = '|---|---:|---:|';
foreach ($results as $name => $ir) {
    $base = str_starts_with($name, 'preloaded:') ? $results['preloaded: no Resident']
        : (str_starts_with($name, 'route table') ? $results['route table and container built per request, no Resident'] : $results['no Resident']);
    $lines[] = sprintf('| %s | %s | %s |', $name, number_format($ir), str_contains($name, 'no Resident') ? '' : ($ir >= $base ? '+' : '-') . number_format(abs($ir - $base)));
}
$table = implode("\n", $lines) . "\n";
echo "\n", $table;
@mkdir($opts['out'], 0777, true);
file_put_contents($opts['out'] . '/cost-latest.md', "# What Resident costs every request\n\n"
    . "Command: `make bench` (or `php8.2 -n bench/cost/run.php`).\n\n" . $table);
fprintf(STDERR, "wrote %s/cost-latest.md\n", $opts['out']);
