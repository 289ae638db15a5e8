--TEST--
Closures rebound to another scope (Closure::bind(), bindTo(), call()) are found (among the methods of the classes of their file) and kept with the scope they have; a closure made in a plain function is kept too
--EXTENSIONS--
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
--FILE--
<?php
final class Maker
{
    public function make(): Closure { return function () { return static::class . ' ' . $this->secret(); }; }
}
final class Vault
{
    public function __construct(private string $code) {}
    private function secret(): string { return "code $this->code"; }
}
function counter(): Closure { return fn (int $n) => $n + 1; }

$fn = (new Maker())->make();
$values = [
    'rebound' => Closure::bind($fn, new Vault('42'), Vault::class),
    'function' => counter(),
];
$c = Resident\Cache::pool('rebound');
var_dump($c->store('v', $values));
$v = $c->fetch('v');
echo $v['rebound'](), "\n", $v['function'](1), "\n";
?>
--EXPECT--
bool(true)
Vault code 42
2
