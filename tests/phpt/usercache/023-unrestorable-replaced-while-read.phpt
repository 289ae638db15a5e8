--TEST--
UserCache: a value whose class is gone is a miss and its entry goes, but not a newer value of the key that an autoloader (or restore hook) stored while the fetch read it: only the entry the fetch read is dropped
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('replaced-while-read');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class OnlyInTheChild { public int $value = 1; }');
    exit($c->store('one', new OnlyInTheChild()) && $c->store('many', new OnlyInTheChild())
        && $c->store('plain', new OnlyInTheChild()) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

$replace = null;
spl_autoload_register(function (string $class) use ($c, &$replace) {
    if ($replace !== null) {
        echo "autoloader stores '$replace': ", var_export($c->store($replace, "newer $replace"), true), "\n";
        $replace = null;
    }
});
$replace = 'one';
var_dump($c->fetch('one', 'MISS'), $c->fetch('one', 'GONE'));
$replace = 'many';
var_dump($c->fetchMultiple(['many'], 'MISS'), $c->fetch('many', 'GONE'));
echo "nothing stored meanwhile: the entry goes\n";
var_dump($c->fetch('plain', 'MISS'), $c->has('plain'));
?>
--EXPECT--
int(0)
autoloader stores 'one': true
string(4) "MISS"
string(9) "newer one"
autoloader stores 'many': true
array(1) {
  ["many"]=>
  string(4) "MISS"
}
string(10) "newer many"
nothing stored meanwhile: the entry goes
string(4) "MISS"
bool(false)
