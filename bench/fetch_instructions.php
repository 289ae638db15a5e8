<?php
/*
 * Instructions per fetch of object values, by callgrind: what a change to
 * the object encoding must not make worse (issue 26: "fetch no slower").
 *
 *   php8.2 -n bench/fetch_instructions.php [--ext=resident.so] [--ext2=other.so]
 *
 * For each value (1,000 small objects; a 200-node tree whose nodes point at
 * their parents) and each mode (copy, borrow), a process stores it once and
 * fetches it N times under callgrind, for N = 10 and N = 60: (total(60) -
 * total(10)) / 50 is one fetch (startup, the store and the last value's
 * release cancel out). And 50 small objects under 50 keys, each fetched
 * once per request (Cache::endOfRequest() ends one), N requests: per
 * fetch, what a request pays for the first read of each entry. The key is built at run time, so every fetch looks
 * it up in the shared index. Deterministic: the machine's load does not
 * move it. With --ext2, both builds side by side.
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

final class BenchNode
{
    public array $children = [];
    public ?BenchNode $parent = null;
    public function __construct(public string $name) {}
}

function value_of(string $what): object|array
{
    if ($what === 'objects') {
        $v = [];
        for ($i = 0; $i < 1000; $i++) {
            $v[] = new BenchUser($i, "user$i", "user$i@example.com", $i % 2 === 0, $i / 7);
        }
        return $v;
    }
    $root = new BenchNode('root');
    $all = [$root];
    for ($i = 1; $i < 200; $i++) {
        $n = new BenchNode("n$i");
        $n->parent = $all[intdiv($i - 1, 3)];
        $n->parent->children[] = $n;
        $all[] = $n;
    }
    return $root;
}

const KEYS = 50;

$opts = [];
foreach (array_slice($argv, 1) as $arg) {
    if (preg_match('/^--([a-z0-9]+)=(.*)$/', $arg, $m)) {
        $opts[$m[1]] = $m[2];
    }
}

if (($opts['worker'] ?? '') === 'keys') {
    // 50 users under 50 keys, each fetched once per request, as a page
    // listing cached entities does; Cache::endOfRequest() ends a request.
    $c = Resident\Cache::pool('fetch-instructions');
    for ($u = 0; $u < KEYS; $u++) {
        $c->store("user:$u", new BenchUser($u, "user$u", "user$u@example.com", $u % 2 === 0, $u / 7)) || exit(1);
    }
    $sum = 0;
    for ($i = 0, $n = (int)$opts['n']; $i < $n; $i++) {
        for ($u = 0; $u < KEYS; $u++) {
            $sum += $c->fetch("user:$u")->id;
        }
        Resident\Cache::endOfRequest();
    }
    exit($sum === $n * KEYS * (KEYS - 1) / 2 ? 0 : 1);
}

if (isset($opts['worker'])) {
    $c = Resident\Cache::pool('fetch-instructions');
    $value = value_of($opts['worker']);
    $c->store('k', $value) || exit(1);
    $expected = serialize($value);
    unset($value);
    $key = str_repeat('k', 1);
    for ($i = 0, $n = (int)$opts['n']; $i < $n; $i++) {
        $got = $c->fetch($key);
    }
    exit(serialize($got) === $expected ? 0 : 1);
}

function instructions(string $ext, string $what, int $zero_copy, int $n): int
{
    $out = tempnam(sys_get_temp_dir(), 'callgrind');
    $cmd = ['valgrind', '--tool=callgrind', "--callgrind-out-file=$out", PHP_BINARY, '-n', '-d', "extension=$ext",
        '-d', 'resident.enable_cli=1', '-d', "resident.zero_copy=$zero_copy", __FILE__, "--worker=$what", "--n=$n"];
    $proc = proc_open($cmd, [1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes);
    $err = stream_get_contents($pipes[2]);
    if (proc_close($proc) !== 0 || !preg_match('/^(?:summary|totals): (\d+)/m', (string)file_get_contents($out), $m)) {
        @unlink($out);
        fwrite(STDERR, "callgrind run failed ($what, zero_copy=$zero_copy, n=$n):\n$err\n");
        exit(1);
    }
    unlink($out);
    return (int)$m[1];
}

$builds = [$opts['ext'] ?? dirname(__DIR__) . '/build/php-8.2/modules/resident.so'];
if (isset($opts['ext2'])) {
    $builds[] = $opts['ext2'];
}
echo '| value | mode | ', implode(' | ', $builds), count($builds) > 1 ? ' | ratio' : '', " |\n";
echo '|---|---|', str_repeat('---:|', count($builds) + (count($builds) > 1 ? 1 : 0)), "\n";
$values = ['objects' => '1,000 small objects', 'graph' => '200-node tree with parent cycles',
    'keys' => 'one of 50 small objects under 50 keys, each fetched once per request'];
foreach ($values as $what => $title) {
    foreach ([0 => 'copy', 1 => 'borrow'] as $zc => $mode) {
        $per = [];
        foreach ($builds as $ext) {
            $per[] = intdiv(instructions($ext, $what, $zc, 60) - instructions($ext, $what, $zc, 10), $what === 'keys' ? 50 * KEYS : 50);
        }
        echo "| $title | $mode | ", implode(' | ', array_map(fn ($x) => number_format($x), $per)),
            count($per) > 1 ? sprintf(' | %.3fx', $per[1] / $per[0]) : '', " |\n";
    }
}
