<?php
// Endpoint for tests/fpm/usercache.php: values one request stores and a later
// request (a fresh request of a worker) reads. ?case=...&step=seed|read
header('X-Pid: ' . getmypid());

class Member
{
    public function __construct(public string $name, public int $age)
    {
    }
}

class Badge
{
    public static int $restored = 0;

    public function __construct(private int $number)
    {
    }

    public function __serialize(): array
    {
        return ['number' => $this->number];
    }

    public function __unserialize(array $data): void
    {
        self::$restored++;
        $this->number = $data['number'];
    }

    public function number(): int
    {
        return $this->number;
    }
}

class Launch extends DateTime
{
    private string $label = '';
    protected int $revision = 0;

    public function tag(string $label, int $revision): static
    {
        [$this->label, $this->revision] = [$label, $revision];
        return $this;
    }

    public function describe(): string
    {
        return "$this->label:$this->revision";
    }
}

class NamedIterator extends ArrayIterator
{
}

class Metrics extends ArrayObject
{
    private string $unit = 'ms';

    public function unit(): string
    {
        return $this->unit;
    }
}

class Window extends DatePeriod
{
    public string $label = 'none';
}

function days(DatePeriod $period): string
{
    $out = [];
    foreach ($period as $day) {
        $out[] = $day->format('m-d');
    }
    return implode(' ', $out);
}

$case = $_GET['case'] ?? '';
$seed = ($_GET['step'] ?? '') === 'seed';
$c = UserCache\Cache::getPool('values-' . $case);
$out = [];
switch ($case) {
    case 'graph':
        // Objects with and without __serialize, an array whose next index
        // outlived its last element, one object twice, a reference pair.
        $leaf = [str_repeat('leaf', 600), ['id' => 13]];
        if ($seed) {
            $holes = [];
            $holes[6] = 'gone';
            unset($holes[6]);
            $twice = new stdClass();
            $twice->n = 42;
            $refs = ['value' => 1];
            $refs['alias'] = &$refs['value'];
            $out = [
                $c->store('objects', ['member' => new Member('Ada', 36), 'badge' => new Badge(7),
                    'when' => new DateTimeImmutable('2026-06-15 09:30:00', new DateTimeZone('UTC')), 'holes' => $holes]),
                $c->store('twice', [$twice, $twice, $leaf]),
                $c->store('refs', $refs),
            ];
            break;
        }
        $o = $c->fetch('objects');
        $o['holes'][] = 'next';
        $t = $c->fetch('twice');
        $same = $t[0] === $t[1];
        $leafEqual = $t[2] === $leaf;
        $t[2][1]['id'] = 99; // a copy of this request's: the next request reads 13 again
        $r = $c->fetch('refs');
        $r['alias'] = 5;
        $out = [$o['member']->name, $o['member']->age, $o['badge']->number(), $o['when']->format('Y-m-d H:i:s e'),
            array_key_last($o['holes']), $same, $leafEqual, $r['value']];
        break;
    case 'internal':
        // DateTime, ArrayObject (with its iterator class), SplFixedArray, SplQueue,
        // SplPriorityQueue and DatePeriod, subclassed with properties of their own.
        if ($seed) {
            $q = new SplQueue();
            $q->enqueue('first');
            $q->enqueue('second');
            $pq = new SplPriorityQueue();
            $pq->setExtractFlags(SplPriorityQueue::EXTR_BOTH);
            $pq->insert('low', 1);
            $pq->insert('high', 9);
            $w = new Window(new DateTimeImmutable('2026-02-01'), new DateInterval('P1D'), 2);
            $w->label = 'sale';
            $out = [$c->store('all', [
                'launch' => (new Launch('2026-06-15 09:30:00.250000', new DateTimeZone('Europe/Paris')))->tag('go', 3),
                'metrics' => new Metrics(['p50' => 10, 'p99' => 80], 0, NamedIterator::class),
                'fixed' => SplFixedArray::fromArray(['a', 'b', ['c']], false),
                'queue' => $q, 'pq' => $pq,
                'recurrences' => new DatePeriod(new DateTimeImmutable('2026-01-01'), new DateInterval('P1D'), 3),
                'until' => new DatePeriod(new DateTimeImmutable('2026-03-01'), new DateInterval('P1M'), new DateTimeImmutable('2026-05-15')),
                'window' => $w,
            ])];
            break;
        }
        $v = $c->fetch('all');
        $top = $v['pq']->extract();
        $out = [$v['launch']->format('Y-m-d H:i:s.u e'), $v['launch']->describe(),
            $v['metrics']->unit(), get_class($v['metrics']->getIterator()), $v['metrics']['p99'],
            $v['fixed']->getSize(), $v['fixed'][2][0], $v['queue']->dequeue(), $v['queue']->dequeue(), $top,
            days($v['recurrences']), days($v['until']), get_class($v['window']), $v['window']->label, days($v['window'])];
        break;
    case 'multiple':
        if ($seed) {
            $out = [$c->store('counter', 41), $c->storeMultiple(['message' => 'hi', 'payload' => ['a' => 1, 'b' => [2, 3]]]),
                $c->store('kept', 'long-lived')];
            break;
        }
        $out = [$c->fetch('counter'), $c->fetch('message'), $c->fetch('payload'), $c->deleteMultiple(['message']),
            $c->fetch('message', 'MISS'), $c->fetch('kept', 'MISS')];
        break;
    case 'restore':
        // __unserialize runs at every fetch, in every request: nothing restored is kept.
        if ($seed) {
            $out = [$c->store('badge', new Badge(41))];
            break;
        }
        for ($i = 0; $i < 5; $i++) {
            $b = $c->fetch('badge');
        }
        $out = [Badge::$restored, $b->number()];
        break;
    case 'class_gone':
        // The classes are declared only in the seeding request. A later request
        // that cannot find one reads a miss, and the entry goes; one whose
        // autoloader throws gets the exception, and the entry stays.
        if ($seed) {
            eval('class Vanishing { public string $v = "stored"; } class Unloadable { public string $v = "stored"; }');
            $out = [$c->store('single', new Vanishing()), $c->store('multiple', new Vanishing()),
                $c->store('throws', new Unloadable()), $c->store('throws-multiple', new Unloadable())];
            break;
        }
        spl_autoload_register(function (string $class) {
            if ($class === 'Unloadable') {
                throw new RuntimeException("no $class here");
            }
        });
        $out = [$c->fetch('single', 'DEFAULT'), $c->has('single')];
        try {
            $out[] = $c->fetch('throws', 'DEFAULT');
        } catch (RuntimeException $e) {
            $out[] = $e->getMessage();
        }
        $out[] = $c->has('throws');
        try {
            // The gone class's entry goes before the autoloader's exception ends the batch.
            $out[] = $c->fetchMultiple(['multiple', 'missing', 'throws-multiple'], 'DEFAULT');
        } catch (RuntimeException $e) {
            $out[] = $e->getMessage();
        }
        $out[] = [$c->has('multiple'), $c->has('throws-multiple')];
        break;
    case 'destructor':
        // The seeding request's class has no destructor; the reading request's
        // has one, and every object it fetches runs it.
        if ($seed) {
            eval('class Changing { public int $value = 41; }');
            $out = [$c->store('direct', new Changing()), $c->store('inside', new ArrayObject([new Changing()]))];
            break;
        }
        eval('class Changing { public static int $destructed = 0; public int $value = 41;
            public function __destruct() { self::$destructed++; } }');
        foreach (['direct', 'inside'] as $key) {
            $valid = true;
            for ($i = 0; $i < 2; $i++) {
                $v = $c->fetch($key);
                $valid = $valid && ($key === 'direct' ? $v->value : $v[0]->value) === 41;
                unset($v);
            }
            $out[] = [$key, Changing::$destructed, $valid];
            $c->delete($key);
            $out[] = ['after delete', Changing::$destructed];
        }
        break;
    case 'remember':
        // remember() keeps the callback's result, never the callback: a later
        // request's hit does not call its own, and its captures are gone.
        $token = 'seed-token';
        $file = tmpfile();
        fwrite($file, 'twelve bytes');
        $step = $_GET['step'];
        if ($step === 'seed') {
            $out = [$c->remember('captured', function () use (&$token, $file) {
                return ['token' => $token, 'position' => ftell($file)];
            })];
        } elseif ($step === 'read') {
            $out = [$c->remember('captured', function () {
                throw new RuntimeException('remember() called its callback on a hit');
            })];
        } else {
            $c->delete('captured');
            $out = [$c->remember('captured', fn () => 'fresh after delete')];
        }
        break;
    default:
        http_response_code(400);
        $out = 'unknown case';
}
echo json_encode($out);
