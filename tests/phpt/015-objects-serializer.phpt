--TEST--
Objects and PHP references keep serialize() semantics: identity, references, magic methods, enums
--INI--
resident.enable_cli=1
--FILE--
<?php
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
class Point { public function __construct(public int $x = 0, public ?Point $next = null) {} }
class Woken { public $log = []; public function __wakeup() { $this->log[] = 'woken'; } }
class Custom {
    public $data;
    public function __serialize(): array { return ['d' => $this->data, 'extra' => 1]; }
    public function __unserialize(array $a): void { $this->data = $a['d'] . '+restored'; }
}
class Sleepy { public $keep = 'k'; public $drop = 'd'; public function __sleep() { return ['keep']; } }

$c = Resident\Cache::pool();
$p = new Point(1);
$p->next = $p;                                  // a cycle
$shared = new Point(2);
$a = [1, 2];
$value = ['p' => $p, 'x' => $shared, 'y' => $shared, 'r1' => &$a, 'r2' => &$a, 'suit' => Suit::Spades];
$c->store('graph', $value);
$got = $c->fetch('graph');
var_dump($got['p']->next === $got['p'], $got['x'] === $got['y'], $got['x'] !== $shared);
$got['r1'][] = 3;
var_dump($got['r2']);
var_dump($got['suit'] === Suit::Spades);
var_dump($c->fetch('graph')['x'] !== $got['x']);   // two fetches, two graphs

$c->store('woken', new Woken);
var_dump($c->fetch('woken')->log);
$cu = new Custom;
$cu->data = 'payload';
$c->store('custom', $cu);
var_dump($c->fetch('custom')->data);
$c->store('sleepy', new Sleepy);
var_dump(get_object_vars($c->fetch('sleepy')));
$c->store('enum', Suit::Hearts);
var_dump($c->fetch('enum'));
$d = new DateTimeImmutable('2024-01-02 03:04:05', new DateTimeZone('Asia/Tokyo'));
$c->store('date', $d);
var_dump($c->fetch('date') == $d, $c->fetch('date')->format(DATE_ATOM));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
bool(true)
bool(true)
array(1) {
  [0]=>
  string(5) "woken"
}
string(16) "payload+restored"
array(2) {
  ["keep"]=>
  string(1) "k"
  ["drop"]=>
  string(1) "d"
}
enum(Suit::Hearts)
bool(true)
string(25) "2024-01-02T03:04:05+09:00"
