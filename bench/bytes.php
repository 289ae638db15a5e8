<?php
/*
 * Compactness: bytes of shared memory one cached value holds in Resident's
 * segment, against the igbinary string of the same value (what APCu with
 * apc.serializer=igbinary keeps of it, less APCu's own entry).
 *
 *   php8.2 bench/bytes.php [--out=FILE] [--ext=resident.so]
 *
 * Each value is stored alone in a pool of its own; the pool's memory
 * (Cache::info()['memory']) is then exactly the entry's block: the
 * entry's header, its key and the value's encoding, 16-byte aligned, which
 * Cache::inspect() also gives as the key's 'memory'. The value area alone
 * is inspect()'s 'bytes' of the key. Deterministic:
 * one run is the result.
 */

final class BenchUser
{
    public function __construct(
        public int $id,
        public string $name,
        public string $email,
        public bool $active,
        public float $score,
    ) {}
}

const VALUES = [
    'config' => 'config: 2,000 leaves in 20 sections (the same 100 keys in each; strings, ints, bools)',
    'objects' => '1,000 small objects (5 typed properties)',
    'ints' => 'list of 100,000 ints (0..99,999)',
];

/* Issue 26's goals (Done when 4): at most this many times igbinary's bytes. */
const GOALS = ['config' => 4.0, 'objects' => 3.0, 'ints' => 2.5];

function value_of(string $name): mixed
{
    switch ($name) {
        case 'config':
            $c = [];
            for ($s = 0; $s < 20; $s++) {
                for ($k = 0; $k < 100; $k++) {
                    $c["section$s"]["setting_$k"] = match ($k % 3) {
                        0 => "value-$s-$k",
                        1 => $s * 1000 + $k,
                        2 => ($s + $k) % 2 === 0,
                    };
                }
            }
            return $c;
        case 'objects':
            $list = [];
            for ($i = 0; $i < 1000; $i++) {
                $list[] = new BenchUser($i, "user$i", "user$i@example.com", $i % 2 === 0, $i / 7);
            }
            return $list;
        case 'ints':
            return range(0, 99999);
    }
    throw new LogicException($name);
}

function measure(): array
{
    $out = [];
    foreach (array_keys(VALUES) as $name) {
        $value = value_of($name);
        $pool = Resident\Cache::pool("bytes-$name");
        $pool->clear();
        if (!$pool->store($name, $value)) {
            throw new RuntimeException("store of $name failed");
        }
        $got = $pool->fetch($name);
        if (serialize($got) !== serialize($value)) {
            throw new RuntimeException("$name came back different");
        }
        $info = $pool->info();
        if ($info['entries'] !== 1) {
            throw new RuntimeException("pool of $name holds {$info['entries']} entries");
        }
        $area = null;
        foreach (Resident\Cache::inspect(10, 1)['largest'] as $row) {
            if ($row['pool'] === "bytes-$name" && $row['key'] === $name) {
                $area = $row['bytes'];
                if ($row['memory'] !== $info['memory']) {
                    throw new RuntimeException("inspect() says $name holds {$row['memory']} bytes, info() {$info['memory']}");
                }
            }
        }
        $out[$name] = ['resident' => $info['memory'], 'area' => $area, 'igbinary' => strlen(igbinary_serialize($value))];
    }
    return $out;
}

$opts = [];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}
if (isset($opts['worker'])) {
    echo json_encode(measure());
    exit(0);
}

$ext = $opts['ext'] ?? dirname(__DIR__) . '/build/php-8.2/modules/resident.so';
$dir = PHP_EXTENSION_DIR;
$cmd = [PHP_BINARY, '-n', '-d', 'memory_limit=-1', '-d', "extension=$dir/igbinary.so", '-d', "extension=$ext",
    '-d', 'resident.enable_cli=1', '-d', 'resident.memory=64M', __FILE__, '--worker=1'];
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$json = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
if (proc_close($proc) !== 0 || !is_array($res = json_decode($json, true))) {
    fprintf(STDERR, "bytes worker failed:\n%s%s\n", $json, $err);
    exit(1);
}

$lines = [];
$lines[] = sprintf('Run: %s, PHP %s, %s', date('Y-m-d H:i'), PHP_VERSION, basename(dirname($ext, 2)) . '/' . basename($ext));
$lines[] = '';
$lines[] = '| value | Resident: entry in the segment | of which the value area | igbinary string | Resident / igbinary | goal (issue 26) |';
$lines[] = '|---|---:|---:|---:|---:|---:|';
$met = [];
foreach (VALUES as $name => $title) {
    $r = $res[$name];
    $ratio = $r['resident'] / $r['igbinary'];
    $met[$name] = $ratio <= GOALS[$name];
    $lines[] = sprintf('| %s | %s B | %s B | %s B | %.2fx | at most %.1fx: %s |', $title, number_format($r['resident']),
        $r['area'] === null ? '?' : number_format($r['area']), number_format($r['igbinary']), $ratio, GOALS[$name],
        $met[$name] ? 'met' : 'NOT MET');
}
$lines[] = '';
$lines[] = 'Resident\'s bytes are the pool\'s `Cache::info()[\'memory\']` with the value stored alone in it (the';
$lines[] = 'entry\'s block: header, key, value area, alignment); the value area is `Cache::inspect()`\'s `bytes`.';
$lines[] = 'igbinary\'s are `strlen(igbinary_serialize($value))`.';
$text = implode("\n", $lines) . "\n";
echo $text;
if (!empty($opts['out'])) {
    file_put_contents($opts['out'], "# Bytes per cached value\n\nCommand: `make bench` (`php8.2 -n bench/bytes.php`)\n\n" . $text);
}
exit(0);
