--TEST--
Shapes of objects of classes that do not last the process (declared by the request) are kept for the rest of the request once a value of their layout is resolved again: fetched again and again, a value comes back as the first fetch gave it (new objects each time, typed properties, defaults of left-out ones); a lazy fetch after an eager one still makes shells; a class missing at the first fetch and declared after is found by the next; another value stored under the key comes back as it is
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
--FILE--
<?php
use Resident\Cache;
use Resident\Testing;

final class Point
{
    public function __construct(public int $x = 0, public int $y = 0, public ?Point $next = null, public string $tag = 'p') {}
}

$c = Cache::pool('shapes-once');
$c->store('points', [new Point(1, 2, new Point(3, 4)), new Point(5, 6)]);
$seen = [];
for ($i = 0; $i < 3; $i++) {
    $v = $c->fetch('points');
    $seen[] = spl_object_id($v[0]);
    printf("fetch %d: %d,%d -> %d,%d; %d,%d; tag %s\n", $i, $v[0]->x, $v[0]->y, $v[0]->next->x, $v[0]->next->y, $v[1]->x, $v[1]->y, $v[1]->tag);
    $v[0]->x = 100;      // the next fetch is not this object
    $keep[] = $v;
}
var_dump(count(array_unique($seen)) === 3);
try {
    $v[1]->x = 'not an int';
} catch (TypeError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

echo "-- lazily after eagerly\n";
$lazy = Testing::fetchLazily($c, 'points');
var_dump(Testing::isShell($lazy[0]), $lazy[0]->next->y, Testing::isShell($lazy[1]), $lazy[1]->tag);

echo "-- a class declared after the first fetch\n";
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class Later { public int $n = 7; public array $list = [1, 2]; }');
    exit($c->store('later', [new Later(), new Later()]) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
$first = $c->fetch('later');
echo get_class($first[0]), "\n";
eval('final class Later { public int $n = 0; public array $list = []; }');
$second = $c->fetch('later');
echo get_class($second[0]), ' ', $second[0]->n, ' ', json_encode($second[1]->list), "\n";
$third = $c->fetch('later');
echo get_class($third[0]), ' ', $third[0]->n, "\n";

echo "-- another value under the key\n";
$pid = pcntl_fork();
if ($pid === 0) {
    exit($c->store('points', [new Point(7, 8)]) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
$v = $c->fetch('points');
printf("%d value(s): %d,%d, next %s, tag %s\n", count($v), $v[0]->x, $v[0]->y, var_export($v[0]->next, true), $v[0]->tag);
?>
--EXPECT--
fetch 0: 1,2 -> 3,4; 5,6; tag p
fetch 1: 1,2 -> 3,4; 5,6; tag p
fetch 2: 1,2 -> 3,4; 5,6; tag p
bool(true)
TypeError: Cannot assign string to property Point::$x of type int
-- lazily after eagerly
bool(true)
int(4)
bool(true)
string(1) "p"
-- a class declared after the first fetch
int(0)
__PHP_Incomplete_Class
Later 7 [1,2]
Later 7
-- another value under the key
1 value(s): 7,8, next NULL, tag p
