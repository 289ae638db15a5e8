<?php
// Random-value fuzzer: fetch(store($v)) must be indistinguishable from
// unserialize(serialize($v)) for random nested values (scalars with their
// edge cases, binary strings, packed/hash/sparse arrays, objects with every
// kind of property, references, cycles, shared objects, enums, the DateTime
// and SPL families, serialization hooks...). Values that cannot be cached
// (a closure deep inside) must throw a TypeError and leave the cache as it was.
//
//   php -d extension=resident.so -d resident.enable_cli=1 [-d resident.zero_copy=1] \
//       value_fuzz.php SECONDS [FIRST_SEED] [--seeds FILE] [--replay SEED]
//
// --seeds FILE: seeds replayed before the timed run, whatever its length
// (tests/fuzz/value-seeds.txt: a fixed sweep, and every seed that once
// failed, as a regression test). --replay SEED: that seed alone, in-process.
//
// The parent forks a child per batch of seeds (so a borrowing child's pinned
// memory goes with it, and a crash is caught with the seed that caused it);
// the children share the parent's segment. Prints its figures and
// "value fuzz: N passed, N failed".
require __DIR__ . '/../phpt/corpus.inc';

/** Reproducible from the seed (random_bytes() is not). */
function fuzz_bytes(int $n): string
{
    $s = '';
    for ($i = 0; $i < $n; $i++) {
        $s .= chr(mt_rand(0, 255));
    }
    return $s;
}

final class FuzzReadonly
{
    public function __construct(
        public readonly int $id,
        public readonly array $tags,
        protected readonly ?string $note = null,
        private readonly mixed $any = null,
    ) {}
}

class FuzzBase
{
    private $secret = 'base';
    protected $shared = 'p';
    public $open;
}

class FuzzChild extends FuzzBase
{
    private $secret = 'child';       // same name as the parent's private
    public ?FuzzBase $link = null;
    public int|float $num = 0;
    public ?array $list = null;
    public static $notStored = 'static';
}

class FuzzSerializable implements Serializable
{
    public $payload;
    public function serialize(): ?string { return serialize($this->payload); }
    public function unserialize(string $data): void { $this->payload = unserialize($data); }
    public function __serialize(): array { return ['p' => $this->payload]; }
    public function __unserialize(array $d): void { $this->payload = $d['p']; }
}

// Serialization hooks that keep the state as it was, so that
// unserialize(serialize($v)) is $v again (the hooks' order is logged).
class FuzzLog { public static array $log = []; }
class FuzzWakeup
{
    public $n = 0;
    private $p = 'p';
    public function __wakeup() { FuzzLog::$log[] = 'wakeup ' . json_encode($this->n); }
}
class FuzzSleepBase
{
    private $basePriv = 'base';
    public function setBase($v) { $this->basePriv = $v; }
}
class FuzzSleep extends FuzzSleepBase
{
    public $keep = 'k';
    protected $log = [];
    private $priv;
    private ?int $typed;     // left uninitialized half the time
    public function fill($log, $priv, ?int $typed)
    {
        $this->log = $log;
        $this->priv = $priv;
        if ($typed !== null) {
            $this->typed = $typed;
        }
    }
    // Protected and private by their names, private given mangled, a parent's private given mangled.
    public function __sleep() { return ['keep', 'log', "\0FuzzSleep\0priv", 'typed', "\0FuzzSleepBase\0basePriv"]; }
    public function __wakeup() { FuzzLog::$log[] = 'wakeup sleep'; }
}
class FuzzSerialize
{
    public $data = [];
    private $more;
    public function __serialize(): array { return ['data' => $this->data, 'more' => $this->more]; }
    public function __unserialize(array $a): void { FuzzLog::$log[] = 'unserialize'; $this->data = $a['data']; $this->more = $a['more']; }
}

enum FuzzInt: int { case A = 1; case B = -7; case C = PHP_INT_MAX; }

final class ValueGen
{
    private int $nodes = 0;
    private array $pool = [];     // objects already made, for shared identity and cycles
    public ?array $made = null;   // when an array: every object made, held (see fuzz_plant_cycle())

    public function __construct(private int $maxNodes) {}

    public function value(int $depth = 0): mixed
    {
        $this->nodes++;
        if ($this->nodes > $this->maxNodes || $depth > 6) {
            return $this->scalar();
        }
        $r = mt_rand(0, 99);
        if ($r < 40) {
            return $this->scalar();
        }
        if ($r < 70) {
            return $this->arr($depth + 1);
        }
        if ($r < 76 && $this->pool) {
            return $this->pool[array_rand($this->pool)];   // the same object again
        }
        return $this->object($depth + 1);
    }

    public function scalar(): mixed
    {
        switch (mt_rand(0, 13)) {
            case 0: return null;
            case 1: return (bool)mt_rand(0, 1);
            case 2: return [0, 1, -1, PHP_INT_MAX, PHP_INT_MIN, 255, 256, -2147483648, 4294967296][mt_rand(0, 8)];
            case 3: return mt_rand(PHP_INT_MIN, PHP_INT_MAX);
            case 4: return [NAN, INF, -INF, -0.0, 0.0, PHP_FLOAT_EPSILON, PHP_FLOAT_MAX, PHP_FLOAT_MIN, -PHP_FLOAT_MIN / 2, 0.1][mt_rand(0, 9)];
            case 5: return mt_rand() / mt_getrandmax() * 10 ** mt_rand(-300, 300) * (mt_rand(0, 1) ? 1 : -1);
            case 6: return fuzz_bytes(mt_rand(0, 40));
            case 7: return str_repeat(chr(mt_rand(0, 255)), [0, 1, 7, 8, 15, 16, 23, 24, 4095, 4096, 70000][mt_rand(0, 10)]);
            case 8: return ['', '0', '1', '-1', '01', '1e3', ' 1', '9223372036854775808', "\0", 'NAN', 'true'][mt_rand(0, 10)];
            case 9: return 'k' . mt_rand(0, 50);                         // repeated short strings (interning)
            case 10: return bin2hex(fuzz_bytes(mt_rand(1, 300)));
            case 11: return [Suit::Hearts, Suit::Spades, Pure::One, Pure::Two, FuzzInt::A, FuzzInt::B, FuzzInt::C][mt_rand(0, 6)];
            case 12: return mt_rand(0, 1) ? "é\u{1F600}\xff" : mb_substr('ünïcödé', 0, mt_rand(0, 7));
            default: return mt_rand(-1000, 1000);
        }
    }

    private function key(): int|string
    {
        switch (mt_rand(0, 5)) {
            case 0: return mt_rand(-5, 20);
            case 1: return mt_rand(PHP_INT_MIN, PHP_INT_MAX);
            case 2: return ['', '0x', '01', ' ', "\0", "\0*\0p", 'é', '-0'][mt_rand(0, 7)];
            case 3: return fuzz_bytes(mt_rand(1, 12));
            default: return 'key' . mt_rand(0, 30);
        }
    }

    public function arr(int $depth): array
    {
        $n = [0, 1, 2, 3, 5, 8, 17, 40][mt_rand(0, 7)];
        $a = [];
        switch (mt_rand(0, 4)) {
            case 0: // packed
                for ($i = 0; $i < $n; $i++) {
                    $a[] = $this->value($depth);
                }
                break;
            case 1: // packed with holes and a moved next index
                for ($i = 0; $i < $n; $i++) {
                    $a[] = $this->value($depth);
                }
                foreach (array_keys($a) as $k) {
                    if (mt_rand(0, 2) === 0) {
                        unset($a[$k]);
                    }
                }
                break;
            default: // hash
                for ($i = 0; $i < $n; $i++) {
                    $a[$this->key()] = $this->value($depth);
                }
                if ($a && mt_rand(0, 3) === 0) {
                    unset($a[array_key_first($a)]);
                }
        }
        if ($a && mt_rand(0, 5) === 0) {
            // PHP references between elements (and to an element of a child).
            $keys = array_keys($a);
            $k1 = $keys[array_rand($keys)];
            $k2 = $keys[array_rand($keys)];
            $a[$k1] = &$a[$k2];
        }
        if (mt_rand(0, 25) === 0) {
            $a['self'] = &$a;   // an array cycle through a reference
        }
        return $a;
    }

    private function object(int $depth): object
    {
        $kind = mt_rand(0, 22);
        switch ($kind) {
            case 0:
                $o = new stdClass;
                foreach (range(1, mt_rand(0, 4)) as $_) {
                    $name = (string)$this->key();
                    $o->{$name === '' || $name[0] === "\0" ? "p$name" : $name} = $this->value($depth);
                }
                break;
            case 1:
                $o = new Plain;
                $o->a = $this->value($depth);
                $o->b = $this->value($depth);
                break;
            case 2:
                $o = mt_rand(0, 1) ? new Visibility : new ChildVisibility;
                break;
            case 3:
                $o = new Typed;
                $o->i = mt_rand();
                $o->s = mt_rand(0, 1) ? null : fuzz_bytes(mt_rand(0, 30));
                $o->list = $this->arr($depth);
                $o->union = mt_rand(0, 1) ? 5 : 'five';
                $o->f = (float)mt_rand() / 7;
                if (mt_rand(0, 1)) {
                    $o->uninit = 3;  // otherwise left uninitialized
                }
                break;
            case 4:
                $o = new FuzzReadonly(mt_rand(), $this->arr($depth), mt_rand(0, 1) ? null : 'note', $this->value($depth));
                break;
            case 5:
                $o = new FuzzChild;
                $o->open = $this->value($depth);
                $o->num = mt_rand(0, 1) ? mt_rand() : M_PI;
                $o->list = mt_rand(0, 1) ? null : $this->arr($depth);
                $this->pool[] = $o;
                if (mt_rand(0, 2) === 0) {
                    $o->link = $o;  // a cycle through an object
                }
                break;
            case 6:
                $o = new Node($this->value($depth));
                $this->pool[] = $o;
                $o->next = $this->pool[array_rand($this->pool)];
                $o->children = [$this->value($depth), $this->value($depth)];
                break;
            case 7:
                $o = new FuzzSerialize;
                $o->data = $this->arr($depth);
                break;
            case 8:
                $o = new FuzzSleep;
                $o->keep = $this->value($depth);
                $o->fill($this->value($depth), $this->value($depth), mt_rand(0, 1) ? mt_rand() : null);
                if (mt_rand(0, 1)) {
                    $o->setBase($this->value($depth));
                }
                break;
            case 9:
                $o = new Dynamic;
                $o->{'dyn' . mt_rand(0, 3)} = $this->value($depth);
                break;
            case 10:
                $o = new FuzzSerializable;
                $o->payload = $this->value($depth);
                break;
            case 11:
                $zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', '+05:45', 'Australia/Lord_Howe'];
                $ts = mt_rand(-2000000000, 4000000000);
                $d = mt_rand(0, 1) ? new DateTime('@' . $ts) : new DateTimeImmutable('@' . $ts);
                $d = $d->setTimezone(new DateTimeZone($zones[mt_rand(0, 5)]));
                $o = mt_rand(0, 4) ? $d : new DateTimeZone($zones[mt_rand(0, 5)]);
                break;
            case 12:
                $o = mt_rand(0, 1) ? new DateInterval('P' . mt_rand(0, 9) . 'Y' . mt_rand(0, 11) . 'MT' . mt_rand(0, 59) . 'S')
                    : (new DateTime('@' . mt_rand(0, 2000000000)))->diff(new DateTime('@' . mt_rand(0, 2000000000)));
                break;
            case 13:
                $o = new DatePeriod(new DateTimeImmutable('@' . mt_rand(0, 2000000000)), new DateInterval('P' . mt_rand(1, 9) . 'D'), mt_rand(1, 5));
                break;
            case 14:
                $o = mt_rand(0, 1) ? new ArrayObject($this->arr($depth), mt_rand(0, 3)) : new ArrayIterator($this->arr($depth));
                break;
            case 15:
                $o = new SplFixedArray(mt_rand(0, 5));
                foreach ($o as $i => $_) {
                    $o[$i] = $this->value($depth);
                }
                break;
            case 16:
                $o = [new SplDoublyLinkedList, new SplQueue, new SplStack][mt_rand(0, 2)];
                foreach (range(1, mt_rand(1, 4)) as $_) {
                    $o->push($this->value($depth));
                }
                break;
            case 17:
                $o = new SplObjectStorage;
                foreach (range(1, mt_rand(1, 3)) as $_) {
                    $o[$this->object($depth + 1)] = $this->value($depth);
                }
                break;
            case 18:
                $o = new MyDate('@' . mt_rand(0, 2000000000));
                $o->label = $this->scalar();
                break;
            case 19:
                $o = new RuntimeException((string)mt_rand(), mt_rand(0, 100), mt_rand(0, 1) ? new LogicException('prev') : null);
                break;
            case 20:
                $o = new FuzzWakeup;
                $o->n = $this->value($depth);
                break;
            case 21:
                $o = new Promoted(mt_rand(), (string)mt_rand(), mt_rand(0, 1) ? null : $this->arr($depth));
                break;
            default:
                $o = new OrderHook('h' . mt_rand(0, 9), mt_rand(0, 1) ? new OrderHook('c') : null);
                break;
        }
        if (mt_rand(0, 1)) {
            $this->pool[] = $o;
        }
        if ($this->made !== null) {
            $this->made[] = $o;
        }
        return $o;
    }
}

/**
 * The value as resident_dump() shows it but with PHP references transparent,
 * and, apart, which positions share a reference (groups of two or more).
 * unserialize() turns the first position of an object that a later
 * reference points to into a reference too (serialize() writes R: to it), so
 * reference groups are compared with both the original and unserialize()'s.
 */
function fuzz_shape(mixed $value): array
{
    $objects = new SplObjectStorage;
    $refs = [];
    $out = '';
    $onStack = [];
    $walk = function ($v, string $path, string $indent) use (&$walk, &$out, $objects, &$refs, &$onStack) {
        if (is_object($v)) {
            if (isset($objects[$v])) {
                $out .= 'same-as #' . $objects[$v] . "\n";
                return;
            }
            $objects[$v] = count($objects) + 1;
            $path = '#' . $objects[$v];
            $out .= get_class($v) . " $path";
            if ($v instanceof UnitEnum) {
                $out .= ' case ' . $v->name . "\n";
                return;
            }
            $out .= " {\n";
            $props = (array)$v;
            unset($props["\0Exception\0trace"], $props["\0Error\0trace"]);
            if ($v instanceof DateTimeInterface) {
                $props['*format'] = $v->format('Y-m-d H:i:s.u e P T I U');
            }
            if ($v instanceof ArrayObject || $v instanceof ArrayIterator) {
                $props['*storage'] = $v->getArrayCopy();
                $props['*flags'] = $v->getFlags();
            } elseif ($v instanceof Traversable && !$v instanceof DatePeriod) {
                $props['*items'] = iterator_to_array($v, false);
            }
            $v = $props;
        } elseif (!is_array($v)) {
            $out .= is_float($v) && is_nan($v) ? "NAN\n" : (is_float($v) && $v == 0 && fdiv(1, $v) < 0 ? "-0.0\n" : var_export($v, true) . "\n");
            return;
        } else {
            $out .= 'array(' . count($v) . ") [\n";
        }
        foreach ($v as $k => $item) {
            $here = $path . '[' . var_export($k, true) . ']';
            $ref = ReflectionReference::fromArrayElement($v, $k);
            $out .= "$indent  " . var_export($k, true) . ' => ';
            if ($ref) {
                $id = $ref->getId();
                $refs[$id][] = $here;
                if (isset($onStack[$id]) && !is_object($item)) {
                    $out .= "(cycle)\n";
                    continue;
                }
                $onStack[$id] = true;
            }
            $walk($item, $here, "$indent  ");
            if ($ref) {
                unset($onStack[$id]);
            }
        }
        $out .= "$indent}\n";
    };
    $walk($value, '$v', '');
    // An array that holds a reference to itself ($a['self'] = &$a) is one
    // level deeper in the original than in any copy, and so is what is
    // behind a reference back to an array around it (fuzz_plant_cycle()):
    // leave those out.
    $refs = array_map(fn($g) => array_values(array_filter($g, fn($p) => !str_contains($p, "['self']") && !preg_match("/\\['back[0-9]'\\]/", $p))), $refs);
    $groups = array_values(array_filter($refs, fn($g) => count($g) > 1));
    sort($groups);
    return [$out, json_encode($groups, JSON_INVALID_UTF8_SUBSTITUTE)];
}

/** A value holding something that cannot be cached, somewhere inside. */
function fuzz_poison(mixed $v): array
{
    $bad = [fn() => 1, fopen('php://memory', 'r'), (function () { yield 1; })(), new class {}][mt_rand(0, 3)];
    return ['ok' => $v, 'deep' => [[mt_rand(), ['x' => $bad]]]];
}

/** Reference groups (fuzz_shape()) with the objects in their paths unnumbered. */
function fuzz_unnumbered(string $groups): array
{
    $out = [];
    foreach (json_decode($groups, true) as $group) {
        $group = preg_replace('/^#[0-9]+/', '#', $group);
        sort($group);
        $out[] = $group;
    }
    sort($out);
    return $out;
}

/** A shape without the DateTimes' formatted instants. */
function fuzz_unformatted(string $shape): string
{
    return preg_replace("/'\\*format' => '.*'\n/", "'*format'\n", $shape);
}

/** The instant and zone of every DateTime in a value, in walk order (each object and reference once). */
function fuzz_instants($v, array &$seen = [], array &$out = []): array
{
    if (is_object($v)) {
        $id = 'o' . spl_object_id($v);
        if (isset($seen[$id])) {
            return $out;
        }
        $seen[$id] = true;
        if ($v instanceof DateTimeInterface) {
            $out[] = $v->format('Y-m-d H:i:s.u e U');
        }
        $props = (array)$v;
        if ($v instanceof ArrayObject || $v instanceof ArrayIterator) {
            $props[] = $v->getArrayCopy();
        } elseif ($v instanceof Traversable && !$v instanceof DatePeriod) {
            $props[] = iterator_to_array($v, false);
        }
        fuzz_instants($props, $seen, $out);
    } elseif (is_array($v)) {
        foreach ($v as $k => $item) {
            if ($ref = ReflectionReference::fromArrayElement($v, $k)) {
                if (isset($seen['r' . $ref->getId()])) {
                    continue;
                }
                $seen['r' . $ref->getId()] = true;
            }
            fuzz_instants($item, $seen, $out);
        }
    }
    return $out;
}

/**
 * A reference from an array inside $v back to one of the arrays around it
 * ($v['a']['b']['back'] = &$v['a'], at any depth), which serialize() and
 * store() write again inside itself. The reference is held in $held too:
 * shared, as in a program (held by nothing else it would make a loop of
 * plain values, which serialize() of PHP 8.4 cannot write). The value's
 * objects are held as well (ValueGen::$made): serialize() writes an object
 * that nothing else holds once more each time it meets it again, as it
 * does when it writes such an array again, and unserialize() gives copies.
 */
function fuzz_plant_cycle(array &$v, array &$held): void
{
    $paths = [[]];
    $collect = function (array $a, array $path) use (&$collect, &$paths) {
        foreach ($a as $k => $x) {
            if (is_array($x) && $k !== 'self' && count($path) < 6 && count($paths) < 64) {
                $paths[] = [...$path, $k];
                $collect($x, [...$path, $k]);
            }
        }
    };
    $collect($v, []);
    $from = $paths[mt_rand(0, count($paths) - 1)];
    $to = array_slice($from, 0, mt_rand(0, count($from)));
    $target = &$v;
    foreach ($to as $k) {
        $target = &$target[$k];
    }
    $leaf = &$v;
    foreach ($from as $k) {
        $leaf = &$leaf[$k];
    }
    $leaf['back' . mt_rand(0, 9)] = &$target;
    $held[] = &$target;
}

function fuzz_one(Resident\Cache $c, int $seed, array &$stats): ?string
{
    mt_srand($seed);
    $gen = new ValueGen(mt_rand(1, 200));
    // One seed in eight (decided without drawing, so other seeds make the
    // values they always made).
    $plant = $seed % 8 === 5;
    $gen->made = $plant ? [] : null;
    $v = $gen->value();
    $held = [];
    if ($plant && is_array($v)) {
        fuzz_plant_cycle($v, $held);
        $stats['cycles']++;
    }
    if (mt_rand(0, 40) === 0) {
        // Deep nesting, within the 1024 levels that can be stored.
        $deep = $gen->scalar();
        for ($i = mt_rand(100, 1000); $i > 0; $i--) {
            $deep = [$deep];
        }
        $v = [$v, $deep];
    }
    $key = 'v' . mt_rand(0, 200);
    $stats['values']++;

    if (mt_rand(0, 30) === 0) {
        $before = serialize($c->fetch($key));
        try {
            $c->store($key, fuzz_poison($v));
            return 'a value holding a closure/resource/generator/anonymous object was stored';
        } catch (TypeError $e) {
            if (!str_contains($e->getMessage(), 'cannot be cached')) {
                return 'unexpected TypeError: ' . $e->getMessage();
            }
        }
        $stats['rejected']++;
        return serialize($c->fetch($key)) === $before ? null : 'a rejected store changed the cache';
    }

    if ($needle = getenv('FUZZ_SHOW')) {
        $ser = serialize($v);
        $at = strpos($ser, $needle);
        fwrite(STDERR, json_encode(substr($ser, max(0, $at - 100), 400), JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    }
    OrderHook::$order = FuzzLog::$log = [];
    try {
        $expected = unserialize(serialize($v));
    } catch (Throwable $e) {
        // PHP cannot read back what it wrote (SplObjectStorage behind a
        // reference: "Non-object key"); the original is the reference then.
        $stats['unserialize_fails']++;
        if (!$c->store($key, $v)) {
            return 'store() returned false';
        }
        return serialize($c->fetch($key)) === serialize($v) ? null : 'serialize() of the fetched value differs from the original';
    }
    $expectedOrder = [OrderHook::$order, FuzzLog::$log];
    $expectedSer = serialize($expected);
    [$expectedShape, $expectedRefs] = fuzz_shape($expected);
    if (!$c->store($key, $v)) {
        return 'store() returned false';
    }
    OrderHook::$order = FuzzLog::$log = [];
    $fetched = $c->fetch($key);
    $order = [OrderHook::$order, FuzzLog::$log];
    $got = serialize($fetched);
    $quirk = false;
    if ($got !== $expectedSer && $got === serialize($v)) {
        // unserialize() is what differs from the original (PHP's own
        // quirks, e.g. R: to an enum inside DateTime's properties); the
        // fetched value is the original.
        // (A shape walk of the original is no reference either: serialize()
        // writes an array's reference to itself as null, and so does store().)
        $quirk = true;
    } elseif ($got === $expectedSer && ($fetchedShape = fuzz_shape($fetched)[0]) !== $expectedShape
        && fuzz_unformatted($fetchedShape) === fuzz_unformatted($expectedShape)
        && fuzz_instants($fetched) === fuzz_instants($v)) {
        // The same serialization, but unserialize() read it back as another
        // value: a DateTime in the hour a DST change repeats is written as
        // its ambiguous wall time, which unserialize() resolves to the other
        // offset (an hour off); the fetched value holds the original instants.
        $quirk = true;
    }
    if ($quirk) {
        $stats['unserialize_quirks']++;
        $expectedSer = $got;
        [$expectedShape, $expectedRefs] = fuzz_shape($fetched);
        // The hooks unserialize() ran saw its state (a DateTime subclass's
        // properties not yet restored when a __wakeup reads them): compare
        // which hooks ran and in which order, not what they saw.
        $kinds = fn (array $o) => [$o[0], array_map(fn (string $e) => $e === 'wakeup sleep' ? $e : strtok($e, ' '), $o[1])];
        $orderOk = $kinds($order) === $kinds($expectedOrder);
    } else {
        $orderOk = $order === $expectedOrder;
    }
    if (!$orderOk) {
        return 'hooks ran in another order: ' . json_encode($order, JSON_INVALID_UTF8_SUBSTITUTE) . ' vs ' . json_encode($expectedOrder, JSON_INVALID_UTF8_SUBSTITUTE);
    }
    if ($got !== $expectedSer) {
        for ($at = 0; $at < strlen($got) && ($got[$at] ?? '') === ($expectedSer[$at] ?? ''); $at++) {
        }
        $from = max(0, $at - 300);
        return "serialize() differs at byte $at:\n  expected " . json_encode(substr($expectedSer, $from, 600), JSON_INVALID_UTF8_SUBSTITUTE)
            . "\n  fetched  " . json_encode(substr($got, $from, 600), JSON_INVALID_UTF8_SUBSTITUTE);
    }
    [$shape, $refs] = fuzz_shape($fetched);
    if ($shape !== $expectedShape) {
        for ($at = 0; $at < strlen($shape) && ($shape[$at] ?? '') === ($expectedShape[$at] ?? ''); $at++) {
        }
        $from = max(0, (strrpos(substr($shape, 0, $at), "\n") ?: 0) - 800);
        return "shape differs at byte $at:\n--- expected\n" . substr($expectedShape, $from, 1500) . "\n--- fetched\n" . substr($shape, $from, 1500);
    }
    // With an array inside itself, a walk of the original meets its objects
    // in another order than a walk of a copy: compare without their numbers.
    if ($refs !== $expectedRefs && $refs !== fuzz_shape($v)[1]
        && !($held && fuzz_unnumbered($refs) === fuzz_unnumbered(fuzz_shape($v)[1]))) {
        return "references differ: fetched $refs, unserialize() $expectedRefs, original " . fuzz_shape($v)[1];
    }
    // The next free index survives exactly (unserialize() does not keep it,
    // so compare with the original).
    if (is_array($v) && !isset($v['self'])) {
        $a = $v;
        $b = $fetched;
        $a[] = 'appended';
        $b[] = 'appended';
        if (array_key_last($a) !== array_key_last($b)) {
            return 'next free index: ' . var_export(array_key_last($a), true) . ' vs ' . var_export(array_key_last($b), true);
        }
    }
    // Writing to what was fetched never changes the cache.
    if (is_array($fetched)) {
        $fetched['written'] = 1;
        // Not into an array inside itself (fuzz_plant_cycle()): there
        // array_walk_recursive() throws "Recursion detected", which leaks
        // a key on a PHP 8.4 debug build (so it does after unserialize()).
        if (!$held) {
            array_walk_recursive($fetched, function (&$x) { $x = is_string($x) ? 'w' : $x; });
        }
    } elseif (is_object($fetched) && !$fetched instanceof UnitEnum && !$fetched instanceof Closure) {
        try {
            $fetched->written = 1;
        } catch (Error) {
        }
    }
    unset($fetched);
    if (serialize($c->fetch($key)) !== $expectedSer) {
        return 'the cached value changed after the fetched copy was written to';
    }
    $stats['objects'] += substr_count($expectedSer, 'O:') + substr_count($expectedSer, 'C:') + substr_count($expectedSer, 'E:');
    $stats['bytes'] += strlen($expectedSer);
    return null;
}

// --- driver ------------------------------------------------------------------
if (realpath($_SERVER['SCRIPT_FILENAME']) !== __FILE__) {
    return; // included for its functions
}
$args = array_slice($argv, 1);
$replay = null;
if (($i = array_search('--replay', $args, true)) !== false) {
    $replay = (int)$args[$i + 1];
    array_splice($args, $i, 2);
}
$seedFile = null;
if (($i = array_search('--seeds', $args, true)) !== false) {
    $seedFile = $args[$i + 1];
    array_splice($args, $i, 2);
}
$seconds = (float)($args[0] ?? 10);
$seed = (int)($args[1] ?? random_int(1, 1 << 40));
$c = Resident\Cache::pool('fuzz');
error_reporting(E_ALL & ~E_DEPRECATED);
// Exceptions in values: their traces must not hold this script's arguments.
ini_set('zend.exception_ignore_args', '1');

if ($replay !== null) {
    $stats = ['values' => 0, 'rejected' => 0, 'objects' => 0, 'bytes' => 0, 'unserialize_quirks' => 0, 'unserialize_fails' => 0, 'cycles' => 0];
    $why = fuzz_one($c, $replay, $stats);
    echo $why === null ? "seed $replay: ok\n" : "seed $replay: $why\n";
    exit($why === null ? 0 : 1);
}

/**
 * The seeds a --seeds file lists: one per line, or a range FIRST..LAST;
 * what follows a # is a comment (why the seed is there).
 */
function fuzz_seed_file(string $path): array
{
    $lines = @file($path, FILE_IGNORE_NEW_LINES);
    if ($lines === false) {
        fwrite(STDERR, "value fuzz: cannot read the seed file $path\n");
        exit(2);
    }
    $seeds = [];
    foreach ($lines as $n => $line) {
        $line = trim(preg_replace('/#.*/', '', $line));
        if ($line === '') {
            continue;
        }
        if (preg_match('/^(\d+)\.\.(\d+)$/', $line, $m) && $m[1] <= $m[2]) {
            array_push($seeds, ...range((int)$m[1], (int)$m[2]));
        } elseif (preg_match('/^\d+$/', $line)) {
            $seeds[] = (int)$line;
        } else {
            fwrite(STDERR, sprintf("value fuzz: %s line %d: expected a seed or FIRST..LAST, got '%s'\n", $path, $n + 1, $line));
            exit(2);
        }
    }
    return $seeds;
}

$mode = Resident\Cache::status()['zero_copy'] ?? '?';
$state = tempnam(sys_get_temp_dir(), 'resident-fuzz');
$statsFile = $state . '.stats';
$total = ['values' => 0, 'rejected' => 0, 'objects' => 0, 'bytes' => 0, 'unserialize_quirks' => 0, 'unserialize_fails' => 0, 'cycles' => 0];
$failures = [];
$batches = 0;

/**
 * Runs fuzz_one() on $seeds in a forked child (until $deadline), adding its
 * figures to $total and its failures to $failures. Returns the seeds it did
 * not reach: those after one that killed the child.
 */
function fuzz_batch(Resident\Cache $c, array $seeds, float $deadline): array
{
    global $state, $statsFile, $total, $failures, $batches;
    $pid = pcntl_fork();
    if ($pid === 0) {
        $stats = ['values' => 0, 'rejected' => 0, 'objects' => 0, 'bytes' => 0, 'unserialize_quirks' => 0, 'unserialize_fails' => 0, 'cycles' => 0];
        $bad = [];
        foreach ($seeds as $s) {
            if (microtime(true) >= $deadline) {
                break;
            }
            file_put_contents($state, (string)$s);
            $why = fuzz_one($c, $s, $stats);
            if ($why !== null) {
                $bad[] = "seed $s: $why";
            }
        }
        file_put_contents($statsFile, serialize([$stats, $bad]));
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    $batches++;
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
        $at = (int)@file_get_contents($state);
        $how = pcntl_wifsignaled($status) ? 'signal ' . pcntl_wtermsig($status) : 'exit ' . pcntl_wexitstatus($status);
        $failures[] = "seed $at: the process died ($how)";
        $i = array_search($at, $seeds, true);
        return $i === false ? [] : array_slice($seeds, $i + 1);
    }
    [$stats, $bad] = unserialize(file_get_contents($statsFile));
    foreach ($stats as $k => $n) {
        $total[$k] += $n;
    }
    array_push($failures, ...$bad);
    return [];
}

$batch = 300;
// The committed seeds first (tests/fuzz/value-seeds.txt: a fixed sweep and
// every seed that once failed), whatever the time given.
$listed = $seedFile === null ? [] : fuzz_seed_file($seedFile);
for ($todo = $listed; $todo && count($failures) < 10;) {
    $todo = array_merge(fuzz_batch($c, array_slice($todo, 0, $batch), INF), array_slice($todo, $batch));
}
$deadline = microtime(true) + $seconds;
$first = $seed;
while (microtime(true) < $deadline && count($failures) < 10) {
    $left = fuzz_batch($c, range($seed, $seed + $batch - 1), $deadline);
    $seed = $left ? $left[0] : $seed + $batch;
    if (($check = $c->info()) === null) {
        break;
    }
}
@unlink($state);
@unlink($statsFile);
$st = Resident\Cache::status();
foreach ($failures as $f) {
    echo "FAIL $f\n";
}
printf("value fuzz (%s): %d values from %sseeds %d..%d in %.0f s (%d objects, %.1f MB serialized, %d uncacheable values rejected, %d with an array written again inside itself, %d where unserialize() differs from the original and fetch() does not, %d that unserialize() cannot read back), %d process(es), memory used %.1f MB, %d evictions\n",
    $mode, $total['values'], $listed ? count($listed) . ' listed seeds and ' : '', $first, $seed - 1, $seconds - max(0, $deadline - microtime(true)), $total['objects'],
    $total['bytes'] / 1048576, $total['rejected'], $total['cycles'], $total['unserialize_quirks'], $total['unserialize_fails'], $batches, $st['memory_used'] / 1048576, $st['evictions']);
printf("value fuzz: %d passed, %d failed\n", $total['values'] - count($failures), count($failures));
exit($failures ? 1 : 0);
