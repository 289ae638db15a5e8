--TEST--
Shapes of classes that restore through __wakeup() or __unserialize(), of internal classes with hooks (DateTimeImmutable) and of __sleep() selections are resolved once and kept for the rest of the request: the same key fetched again and again gives each time what unserialize() would (__wakeup() and __unserialize() run for every object of every fetch, declared, private and left-out properties as stored), a key stored again with another selection at the same place is told apart, and the next request resolves them afresh
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
use Resident\Cache;

class Base
{
    private string $secret = 'base-default';
    public function secret(): string { return $this->secret; }
    public function setSecret(string $s): void { $this->secret = $s; }
}
final class Slept extends Base
{
    public static int $wakeups = 0;
    public int $a = 0;
    public string $b = 'b-default';
    protected array $c = [];
    public bool $all = false;
    public function __sleep(): array
    {
        // A selection that depends on the object: two shapes of one class.
        return $this->all ? ['a', 'b', 'c', 'all', "\0Base\0secret"] : ['a', 'c'];
    }
    public function __wakeup(): void { self::$wakeups++; }
    public function c(): array { return $this->c; }
    public function setC(array $c): void { $this->c = $c; }
}
final class Hooked
{
    public static int $calls = 0;
    public function __construct(public int $n = 0, public ?DateTimeImmutable $at = null) {}
    public function __serialize(): array { return ['n' => $this->n, 'at' => $this->at]; }
    public function __unserialize(array $data): void
    {
        self::$calls++;
        $this->n = $data['n'] * 10;
        $this->at = $data['at'];
    }
}

function value(bool $all): array
{
    $v = [];
    for ($i = 1; $i <= 3; $i++) {
        $s = new Slept();
        $s->a = $i;
        $s->b = "b$i";
        $s->setC(['i' => $i]);
        $s->all = $all;
        $s->setSecret("secret$i");
        $v[] = $s;
        $v[] = new Hooked($i, new DateTimeImmutable("2020-01-0$i 10:00:00", new DateTimeZone('Europe/Paris')));
    }
    return $v;
}

function show(array $v): string
{
    $out = [];
    foreach ($v as $o) {
        $out[] = $o instanceof Slept
            ? sprintf('S(%d,%s,%s,%s)', $o->a, $o->b, json_encode($o->c()), $o->secret())
            : sprintf('H(%d,%s)', $o->n, $o->at->format('Y-m-d H:i e'));
    }
    return implode(' ', $out);
}

$c = Cache::pool('hooked-shapes');
foreach ([false, true] as $request => $all) {
    $c->store('v', value($all));
    $expect = show(unserialize(serialize(value($all))));
    Slept::$wakeups = Hooked::$calls = 0;
    $same = 0;
    for ($i = 0; $i < 4; $i++) {
        $same += show($c->fetch('v')) === $expect;
    }
    echo "request $request: $same of 4 fetches as unserialize(); __wakeup() ", Slept::$wakeups, ', __unserialize() ', Hooked::$calls, "\n";
    echo '  ', $expect, "\n";
    // The key stored again with the other selection, fetched in the same request.
    $c->store('v', value(!$all));
    echo '  stored again: ', show($c->fetch('v')) === show(unserialize(serialize(value(!$all)))) ? 'as unserialize()' : 'DIFFERS', "\n";
    Cache::endOfRequest();
}
?>
--EXPECT--
request 0: 4 of 4 fetches as unserialize(); __wakeup() 12, __unserialize() 12
  S(1,b-default,{"i":1},base-default) H(10,2020-01-01 10:00 Europe/Paris) S(2,b-default,{"i":2},base-default) H(20,2020-01-02 10:00 Europe/Paris) S(3,b-default,{"i":3},base-default) H(30,2020-01-03 10:00 Europe/Paris)
  stored again: as unserialize()
request 1: 4 of 4 fetches as unserialize(); __wakeup() 12, __unserialize() 12
  S(1,b1,{"i":1},secret1) H(10,2020-01-01 10:00 Europe/Paris) S(2,b2,{"i":2},secret2) H(20,2020-01-02 10:00 Europe/Paris) S(3,b3,{"i":3},secret3) H(30,2020-01-03 10:00 Europe/Paris)
  stored again: as unserialize()
