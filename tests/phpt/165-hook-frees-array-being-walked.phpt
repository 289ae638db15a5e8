--TEST--
A hook of an element of the array store() is walking that replaces that array (freeing it) or grows it until it moves (a list, a map), or a hook of an object in a dynamic property that adds dynamic properties to the object being walked until its table moves (a plain object, a DateTime): the walk never reads the freed array or table (it did: it refused the value for an "internal value" it read there, and valgrind saw the reads), the hook runs once and the value is stored as the hooks left it
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Owner
{
    public array $items = [];
}

final class Rewriter
{
    public static ?Owner $owner = null;
    public static string $how = '';
    public static int $runs = 0;
    public function __serialize(): array
    {
        self::$runs++;
        $o = self::$owner;
        switch (self::$how) {
            case 'replace':
                $o->items = ['replaced', 'with' => 'a map'];
                break;
            case 'grow':
                for ($i = 0; $i < 500; $i++) {
                    $o->items["k$i"] = $i;
                }
                break;
        }
        return ['how' => self::$how];
    }
    public function __unserialize(array $data): void {}
}

$c = Resident\Cache::pool('frees-walked');
foreach (['list' => fn () => [new Rewriter(), 'b', new stdClass(), 'd'],
          'map' => fn () => ['a' => new Rewriter(), 'b' => 'x', 'c' => new stdClass()]] as $shape => $make) {
    foreach (['replace', 'grow'] as $how) {
        $owner = new Owner();
        $owner->items = $make();
        Rewriter::$owner = $owner;
        Rewriter::$how = $how;
        Rewriter::$runs = 0;
        $ok = $c->store('v', $owner);
        $got = $c->fetch('v');
        printf("%s %s: %s, %d hook run, %d items, first %s, last %s\n", $shape, $how, var_export($ok, true), Rewriter::$runs,
            count($got->items), get_debug_type(reset($got->items)), var_export(end($got->items), true));
    }
}
Rewriter::$owner = null;

#[AllowDynamicProperties]
final class Plain {}
#[AllowDynamicProperties]
final class Stamp extends DateTimeImmutable {}
final class Adder
{
    public function __construct(public object $target) {}
    public function __serialize(): array
    {
        for ($i = 0; $i < 300; $i++) {
            $this->target->{"p$i"} = $i;
        }
        return [];
    }
    public function __unserialize(array $data): void {}
}
foreach ([new Plain(), new Stamp('2020-01-02 03:04:05', new DateTimeZone('UTC'))] as $target) {
    $target->a = new Adder($target);
    $target->b = 'tail';
    $ok = $c->store('d', $target);
    $got = $c->fetch('d');
    printf("%s: %s, %d properties, b %s, p299 %d\n", get_class($target), var_export($ok, true), count(get_object_vars($got)), $got->b, $got->p299);
    $target->a = null;
}
?>
--EXPECT--
list replace: true, 1 hook run, 2 items, first string, last 'a map'
list grow: true, 1 hook run, 504 items, first Rewriter, last 499
map replace: true, 1 hook run, 2 items, first string, last 'a map'
map grow: true, 1 hook run, 503 items, first Rewriter, last 499
Plain: true, 302 properties, b tail, p299 299
Stamp: true, 302 properties, b tail, p299 299
