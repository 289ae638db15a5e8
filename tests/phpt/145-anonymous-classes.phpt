--TEST--
Instances of anonymous classes declared in files OPcache caches are cached (their class by name, linked where their script was loaded but the class not yet declared); eval()'d ones, those of a file OPcache does not cache and those implementing Serializable are refused; UserCache refuses them and closures as the proposal does
--EXTENSIONS--
pcntl
opcache
--INI--
resident.enable_cli=1
opcache.enable=1
opcache.enable_cli=1
opcache.file_update_protection=0
opcache.blacklist_filename={PWD}/closures-blacklist.txt
--FILE--
<?php
interface Handler { public function handle(string $x): string; }
final class Stack
{
    public array $layers = [];
    public function add(string $tag): void
    {
        $next = $this->layers ? end($this->layers) : null;
        $this->layers[] = new class ($tag, $next) implements Handler {
            public array $seen = [];
            public function __construct(private string $tag, private ?Handler $next) {}
            public function handle(string $x): string
            {
                $this->seen[] = $x;
                return $this->tag . '(' . ($this->next ? $this->next->handle($x) : $x) . ')';
            }
        };
    }
}
$stack = new Stack;
$stack->add('inner');
$stack->add('outer');
$c = Resident\Cache::pool('anonymous');
var_dump($c->store('stack', $stack));
$pid = pcntl_fork();
if ($pid === 0) {
    $s = $c->fetch('stack');
    $top = end($s->layers);
    echo $top->handle('x'), "\n";
    var_dump(get_class($top) === get_class(end($stack->layers)), $top instanceof Handler, $s->layers[0]->seen);
    exit(0);
}
pcntl_waitpid($pid, $status);

function attempt(string $what, Closure $store): void
{
    try {
        $store();
        echo "$what: stored\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
attempt('eval', fn () => $c->store('k', eval('return new class {};')));
$file = __DIR__ . '/141-closures-uncached.inc';
file_put_contents($file, '<?php return new class { public int $v = 1; };');
$uncached = require $file;
unlink($file);
attempt('not cached by OPcache', fn () => $c->store('k', [$uncached]));
abstract class Legacy implements Serializable
{
    public function serialize(): string { return ''; }
    public function unserialize(string $data): void {}
}
attempt('Serializable', fn () => @$c->store('k', new class extends Legacy {}));
$u = UserCache\Cache::getPool('anonymous');
attempt('UserCache, an anonymous class', fn () => $u->store('k', $stack));
attempt('UserCache, a closure', fn () => $u->store('k', fn () => 1));
attempt('UserCache, a first-class callable', fn () => $u->store('k', strlen(...)));
?>
--EXPECTF--
bool(true)
outer(inner(x))
bool(true)
bool(true)
array(1) {
  [0]=>
  string(1) "x"
}
eval: TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of an anonymous class declared in eval()'d code
not cached by OPcache: TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value[0] is an instance of an anonymous class declared in %s141-closures-uncached.inc, which OPcache does not cache
Serializable: TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of an anonymous class implementing Serializable
UserCache, an anonymous class: TypeError: Handler@anonymous objects cannot be stored in the user cache
UserCache, a closure: TypeError: Closure objects cannot be stored in the user cache
UserCache, a first-class callable: TypeError: Closure objects cannot be stored in the user cache
