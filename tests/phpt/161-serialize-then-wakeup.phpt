--TEST--
A class with __serialize() and __wakeup() but no __unserialize(): a fetch writes the array as its properties and calls __wakeup() on them, as unserialize() does (it called none); an exception from it fails the fetch as it fails unserialize()
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Token
{
    public string $value = '';
    public array $log = [];
    public function __construct(public string $secret = '') {}
    public function __serialize(): array { return ['value' => strtoupper($this->secret)]; }
    public function __wakeup(): void { $this->log[] = "woken with $this->value"; }
}
final class Fussy
{
    public int $n = 1;
    public function __serialize(): array { return ['n' => 2]; }
    public function __wakeup(): void { throw new RuntimeException("wakeup of n=$this->n refused"); }
}
$c = Resident\Cache::pool('serialize-wakeup');
$c->store('t', [new Token('abc'), new Token('xyz')]);
$fetched = $c->fetch('t');
$unserialized = unserialize(serialize([new Token('abc'), new Token('xyz')]));
var_dump($fetched == $unserialized);
echo json_encode(array_map(fn ($t) => $t->log, $fetched)), "\n";

$c->store('f', new Fussy());
foreach (['fetch' => fn () => $c->fetch('f'), 'unserialize' => fn () => unserialize(serialize(new Fussy()))] as $how => $get) {
    try {
        $get();
        echo "$how: no exception\n";
    } catch (RuntimeException $e) {
        echo "$how: ", $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
bool(true)
[["woken with ABC"],["woken with XYZ"]]
fetch: wakeup of n=2 refused
unserialize: wakeup of n=2 refused
