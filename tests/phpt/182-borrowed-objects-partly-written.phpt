--TEST--
A borrowing fetch writes an object's slots as it goes: code that runs while a property's object is made (an autoloader running the collector, which scans the object being written through a cycle back to it) finds the slots not written yet unset; a property whose object cannot be made fails the fetch with the object destroyed cleanly (lists of objects, each written in one pass)
--EXTENSIONS--
pcntl
--ENV--
USE_ZEND_ALLOC=0
GLIBC_TUNABLES=glibc.malloc.tcache_count=0
MALLOC_PERTURB_=170
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
// --ENV--: malloc() (USE_ZEND_ALLOC=0) fills what it hands out with 0x55
// (MALLOC_PERTURB_; its per-thread cache, which skips that, off): a slot
// left as allocated reads as a refcounted value, and destroying or scanning
// the object crashes instead of passing by chance.
final class Holder
{
    public int $x = 0;
    public ?Part $part = null;
    public int $y = 0;
    public string $s = '';
}
$c = Resident\Cache::pool('partly-written');
$pid = pcntl_fork();
if ($pid === 0) {
    // The storer's classes; the reader's come from its autoloader.
    eval('final class Part { public ?Holder $holder = null; public $leaf = null; public int $k = 0; }');
    eval('final class Leaf { public string $name = "leaf"; }');
    eval('final class Gone { public int $v = 1; }');
    $list = [];
    for ($i = 0; $i < 10; $i++) {
        $h = new Holder();
        $h->x = $i;
        $h->part = new Part();
        // A cycle: reading it back puts the holder among the collector's
        // roots while its part is being made.
        $h->part->holder = $h;
        $h->part->leaf = new Leaf();
        $h->part->k = $i * 10;
        $h->y = $i + 100;
        $h->s = str_repeat('s', $i);
        $list[] = $h;
    }
    $c->store('cycles', $list);
    $broken = [];
    for ($i = 0; $i < 10; $i++) {
        $b = new Holder();
        $b->x = $i;
        $b->part = new Part();
        $b->part->leaf = $i === 4 ? new Gone() : new Leaf();
        $b->y = 7;
        $b->s = "broken $i";
        $broken[] = $b;
    }
    $c->store('broken', $broken);
    exit(0);
}
pcntl_waitpid($pid, $status);
spl_autoload_register(function (string $class) {
    echo "autoload $class, collected ", gc_collect_cycles(), "\n";
    match ($class) {
        'Part' => eval('final class Part { public ?Holder $holder = null; public $leaf = null; public int $k = 0; }'),
        'Leaf' => eval('final class Leaf { public string $name = "leaf"; }'),
        // Now a class that cannot be instantiated.
        'Gone' => eval('abstract class Gone { public int $v = 1; }'),
    };
});
$list = $c->fetch('cycles');
$ok = true;
foreach ($list as $i => $h) {
    $ok = $ok && $h->x === $i && $h->part->holder === $h && $h->part->k === $i * 10 && $h->y === $i + 100
        && $h->s === str_repeat('s', $i) && $h->part->leaf->name === 'leaf';
}
var_dump(count($list), $ok);
unset($list, $h);
echo "collected ", gc_collect_cycles(), "\n";
for ($round = 0; $round < 2; $round++) {
    try {
        $c->fetch('broken');
        echo "fetched\n";
    } catch (Error $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo "collected ", gc_collect_cycles(), "\n";
}
echo "done\n";
?>
--EXPECT--
autoload Part, collected 0
autoload Leaf, collected 0
int(10)
bool(true)
collected 30
autoload Gone, collected 0
Error: Cannot instantiate abstract class Gone
collected 0
Error: Cannot instantiate abstract class Gone
collected 0
done
