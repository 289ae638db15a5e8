--TEST--
UserCache: values as the proposal's tests give them: arrays with holes (the size of their compact copy, appending where the original does, read by a child), a property referencing another, empty arrays, floats bit for bit, int keys of fetchMultiple() in the order asked, every type replacing every other, DateInterval/DatePeriod/DateTime subclasses with their state, clear() and deletePool() from destructors
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
date.timezone=UTC
--FILE--
<?php
use UserCache\Cache;

echo "arrays with holes:\n";
$sizes = Cache::getPool('sizes');
$size = function (array $v) use ($sizes): int {
    $sizes->clear();
    $before = Cache::getStatus()->getUsedMemory();
    $sizes->store('v', $v);
    return Cache::getStatus()->getUsedMemory() - $before;
};
$tail = [];
for ($i = 0; $i < 500; $i++) {
    $tail["k$i"] = $i;
}
for ($i = 0; $i < 495; $i++) {
    unset($tail["k$i"]);
}
$mixed = [];
for ($i = 0; $i < 60; $i++) {
    $mixed[$i * 5 - 40] = "v$i";
    $mixed["s$i"] = [$i];
}
foreach (array_keys($mixed) as $n => $k) {
    if ($n % 3) {
        unset($mixed[$k]);
    }
}
$gone = ['x' => 1];
unset($gone['x']);
$holed = ['tail' => $tail, 'mixed' => $mixed, 'gone' => $gone];
$c = Cache::getPool('holes');
foreach ($holed as $name => $v) {
    $c->store($name, $v);
    $got = $c->fetch($name);
    $same = $got === $v && array_keys($got) === array_keys($v);
    $got[] = 'end';
    $v[] = 'end';
    echo $name, ': ', var_export($size($v) === $size(array_slice($v, 0, null, true)), true), ' ',
        var_export($same && $got === $v && array_key_last($got) === array_key_last($v), true), "\n";
}
if (($pid = pcntl_fork()) === 0) {
    $ok = true;
    foreach ($holed as $name => $v) {
        $ok = $ok && Cache::getPool('holes')->fetch($name) === $v;
    }
    echo 'child reads them: ', var_export($ok, true), "\n";
    exit(0);
}
pcntl_waitpid($pid, $st);

echo "references, empty arrays, floats:\n";
class Pair { public int $left = 1; public int $right = 1; }
$p = new Pair();
$p->left = &$p->right;
$c->store('pair', $p);
$got = $c->fetch('pair');
$got->left = 99;
var_dump($got->right);
$empty = [];
$c->store('empties', ['a' => [], 'b' => [[], []], 'ref1' => &$empty, 'ref2' => &$empty]);
$got = $c->fetch('empties');
$got['ref1'][] = 'linked';
var_dump($got['a'] === [] && $got['b'] === [[], []], $got['ref2']);
$floats = [-0.0, PHP_FLOAT_EPSILON, PHP_FLOAT_MIN, PHP_FLOAT_MAX, 4.9e-324, 1 / 3, 0.1 + 0.2, INF, -INF];
$c->store('floats', $floats);
var_dump(array_map(fn ($f) => bin2hex(pack('d', $f)), $c->fetch('floats')) === array_map(fn ($f) => bin2hex(pack('d', $f)), $floats));
$c->store('nan', NAN);
var_dump(is_nan($c->fetch('nan')));

echo "fetchMultiple:\n";
var_dump($c->storeMultiple([123 => 'int', '456' => 'numeric']));
var_dump($c->fetchMultiple(['456', 789, 123], 'none'));

echo "every type replaces every other:\n";
$values = [null, false, 0, -0.0, '', str_repeat("a\0b", 100), str_repeat('long', 2048), ['o' => (object) ['n' => 7]]];
$bad = 0;
foreach ($values as $old) {
    foreach ($values as $new) {
        $c->store('v', $old);
        $held = $c->fetch('v');
        $c->store('v', $new);
        $bad += serialize($c->fetch('v')) !== serialize($new) || serialize($held) !== serialize($old);
    }
}
var_dump($bad);

echo "dates:\n";
class Window extends DateInterval { public string $label = ''; private int $rev = 0; public function tag(string $l, int $r): void { $this->label = $l; $this->rev = $r; } public function rev(): int { return $this->rev; } }
class Span extends DatePeriod { public string $label = ''; }
class Stamp extends DateTimeImmutable { public string $label = ''; }
$w = new Window('P10DT12H');
$w->tag('window', 9);
$span = new Span(new DateTimeImmutable('2026-02-01'), new DateInterval('P1D'), 2);
$span->label = 'span';
$stamp = new Stamp('2024-01-02 03:04:05.123456', new DateTimeZone('Asia/Tokyo'));
$stamp->label = 'tokyo';
$diff = (new DateTimeImmutable('2026-03-15'))->diff(new DateTimeImmutable('2026-01-01'));
$c->store('dates', [$w, $span, $stamp, $diff, new DatePeriod(new DateTimeImmutable('2026-01-01'), new DateInterval('P1D'), new DateTimeImmutable('2026-01-03'), DatePeriod::INCLUDE_END_DATE)]);
[$w2, $span2, $stamp2, $diff2, $incl] = $c->fetch('dates');
var_dump(get_class($w2), $w2->label, $w2->rev(), $w2->format('%d %h'));
var_dump(get_class($span2), $span2->label, implode(',', array_map(fn ($d) => $d->format('md'), iterator_to_array($span2))));
var_dump(get_class($stamp2), $stamp2->label, $stamp2->format('Y-m-d H:i:s.u e'));
var_dump($diff2->days, $diff2->invert, implode(',', array_map(fn ($d) => $d->format('md'), iterator_to_array($incl))));

echo "destructors that clear:\n";
class Clears { public static bool $armed = false; public function __destruct() { if (self::$armed) { Cache::getPool('dtor')->clear(); } } }
class Drops { public static bool $armed = false; public function __destruct() { if (self::$armed) { self::$armed = false; Cache::deletePool('dtor'); } } }
$d = Cache::getPool('dtor');
foreach (['a', 'b'] as $k) {
    $d->store($k, new Clears());
    $d->fetch($k);
}
Clears::$armed = true;
var_dump($d->clear(), $d->has('a'));
Clears::$armed = false;
$d->store('p', new Drops());
$d->fetch('p');
Drops::$armed = true;
var_dump(Cache::deletePool('dtor'), Cache::getPool('dtor')->has('p'));
?>
--EXPECT--
arrays with holes:
tail: true true
mixed: true true
gone: true true
child reads them: true
references, empty arrays, floats:
int(99)
bool(true)
array(1) {
  [0]=>
  string(6) "linked"
}
bool(true)
bool(true)
fetchMultiple:
bool(true)
array(3) {
  [456]=>
  string(7) "numeric"
  [789]=>
  string(4) "none"
  [123]=>
  string(3) "int"
}
every type replaces every other:
int(0)
dates:
string(6) "Window"
string(6) "window"
int(9)
string(5) "10 12"
string(4) "Span"
string(4) "span"
string(14) "0201,0202,0203"
string(5) "Stamp"
string(5) "tokyo"
string(37) "2024-01-02 03:04:05.123456 Asia/Tokyo"
int(73)
int(1)
string(14) "0101,0102,0103"
destructors that clear:
bool(true)
bool(false)
bool(true)
bool(false)
