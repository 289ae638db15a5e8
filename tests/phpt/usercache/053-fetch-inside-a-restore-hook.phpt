--TEST--
UserCache: a fetch made by a restore hook (__unserialize(), __wakeup()) or an autoloader while another fetch is decoding leaves that fetch's key alone: a value that turns out to hold a class that is gone is a miss and its own entry goes, not the entry the hook fetched, for keys of any length
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
final class Nested
{
    public static ?object $pool = null;
    public static string $key = '';
    public static array $seen = [];
    public function __serialize(): array { return []; }
    public function __unserialize(array $data): void
    {
        self::$seen[] = self::$pool->fetch(self::$key, 'inner miss');
    }
}

final class NestedWakeup
{
    public function __wakeup(): void
    {
        Nested::$seen[] = Nested::$pool->fetch(Nested::$key, 'inner miss');
    }
}

$c = UserCache\Cache::getPool('nested-fetch');
Nested::$pool = $c;
$keys = [['outer', 'inner'], [str_repeat('o', 300), 'i'], ['o', str_repeat('i', 500)]];
$pid = pcntl_fork();
if ($pid === 0) {
    eval('final class OnlyInTheChild { public int $value = 1; }');
    $ok = true;
    foreach ($keys as $n => [$outer, $inner]) {
        /* The hook's object first, the gone class after it. */
        $ok = $ok && $c->store("$outer/serialize", [new Nested(), new OnlyInTheChild()])
            && $c->store("$outer/wakeup", [new NestedWakeup(), new OnlyInTheChild()]);
    }
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

spl_autoload_register(function (string $class) use ($c) {
    Nested::$seen[] = "autoload $class: " . $c->fetch(Nested::$key, 'inner miss');
});
foreach ($keys as [$outer, $inner]) {
    foreach (['serialize', 'wakeup'] as $hook) {
        $c->store($inner, "inner value " . strlen($inner));
        Nested::$key = $inner;
        Nested::$seen = [];
        $got = $c->fetch("$outer/$hook", 'outer miss');
        printf("%d/%d %s: %s; hooks saw: %s; outer kept: %s; inner: %s\n", strlen($outer), strlen($inner), $hook,
            var_export($got, true), implode(', ', Nested::$seen), var_export($c->has("$outer/$hook"), true),
            var_export($c->fetch($inner, 'gone'), true));
    }
}
?>
--EXPECT--
int(0)
5/5 serialize: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 5, inner value 5; outer kept: false; inner: 'inner value 5'
5/5 wakeup: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 5, inner value 5; outer kept: false; inner: 'inner value 5'
300/1 serialize: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 1, inner value 1; outer kept: false; inner: 'inner value 1'
300/1 wakeup: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 1, inner value 1; outer kept: false; inner: 'inner value 1'
1/500 serialize: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 500, inner value 500; outer kept: false; inner: 'inner value 500'
1/500 wakeup: 'outer miss'; hooks saw: autoload OnlyInTheChild: inner value 500, inner value 500; outer kept: false; inner: 'inner value 500'
