--TEST--
memory_limit reached while a borrowing fetch makes what a property holds (a list of objects, the object written in one pass): the object being written has its slots not written yet unset, so the request's end destroys it cleanly, and the process's next fetch works (php-fpm's next request; here a shutdown function)
--SKIPIF--
<?php
// Debian's PHP 8.2 lets internal code run on past memory_limit until
// control returns to PHP code: the 8.4 debug build (upstream behaviour)
// runs this test.
if (PHP_VERSION_ID < 80400) die('skip memory_limit must end internal code at once (PHP 8.4 build of make test)');
?>
--ENV--
USE_ZEND_ALLOC=0
GLIBC_TUNABLES=glibc.malloc.tcache_count=0
MALLOC_PERTURB_=170
USE_TRACKED_ALLOC=1
--INI--
resident.enable_cli=1
resident.zero_copy=1
memory_limit=64M
--FILE--
<?php
// --ENV--: malloc() (USE_ZEND_ALLOC=0) fills what it hands out with 0x55
// (MALLOC_PERTURB_; its per-thread cache, which skips that, off): a slot
// left as allocated reads as a refcounted value, and destroying or scanning
// the object crashes instead of passing by chance.
final class Part { public int $k = 0; public string $name = 'part'; }
final class Holder
{
    public int $x = 0;
    public array $parts = [];
    public int $y = 0;
    public string $s = '';
}
$h = new Holder();
$h->x = 1;
for ($i = 0; $i < 4000; $i++) {
    $p = new Part();
    $p->k = $i;
    $h->parts[] = $p;
}
$h->y = 2;
$h->s = str_repeat('s', 3);
$c = Resident\Cache::pool('oom-fetch');
var_dump($c->store('holder', [$h, $h->parts[0]]));
unset($h, $p);
register_shutdown_function(function () use ($c) {
    ini_set('memory_limit', '64M');
    [$h, $first] = $c->fetch('holder');
    var_dump(count($h->parts), $h->parts[3999]->k, $h->y, $h->s, $first === $h->parts[0]);
});
// Every allocation is checked against the limit (USE_TRACKED_ALLOC): with
// three quarters of what the fetched value takes, the fetch runs out while
// it makes the parts, with the holder's slots past them not written yet.
$before = memory_get_usage();
$whole = $c->fetch('holder');
$takes = memory_get_usage() - $before;
unset($whole);
ini_set('memory_limit', (string)(memory_get_usage() + intdiv($takes * 3, 4)));
$c->fetch('holder');
echo "not reached\n";
?>
--EXPECTF--
bool(true)

Fatal error: Allowed memory size of %d bytes exhausted%s(tried to allocate %d bytes) in %s on line %d
int(4000)
int(3999)
int(2)
string(3) "sss"
bool(true)
