--TEST--
UserCache and Resident\Cache: the properties a __sleep() names are stored with the values they had when it ran, as serialize() stores them, also where a later hook (of the object held there, or of one met after the holder) clears, replaces or appends to them, or unsets a dynamic one; a hook that runs before the holder's __sleep() is seen, as by serialize()
--INI--
resident.enable_cli=1
--FILE--
<?php
#[AllowDynamicProperties]
final class Holder
{
    public $inner;
    public array $list = ['a'];
    public string $name = 'before';
    public int $n = 1;
    public function __sleep(): array
    {
        return ['inner', 'list', 'name', 'n', 'extra'];
    }
}

final class Changer
{
    public static ?Holder $holder = null;
    public static string $how = '';
    public function __sleep(): array
    {
        $h = self::$holder;
        switch (self::$how) {
            case 'clear':
                $h->inner = null;
                break;
            case 'replace':
                $h->list = ['replaced'];
                $h->name = 'after';
                $h->n = 2;
                $h->extra = 'changed';
                break;
            case 'append':
                $h->list[] = 'appended';
                break;
            case 'unset':
                unset($h->extra);
                break;
        }
        return [];
    }
}

function make(string $how, string $where): array
{
    $h = new Holder();
    $h->extra = 'dynamic';
    $h->inner = $where === 'inner' ? new Changer() : new stdClass();
    Changer::$holder = $h;
    Changer::$how = $how;
    return match ($where) {
        'inner' => [$h],
        'after' => [$h, new Changer()],
        'before' => [new Changer(), $h],
    };
}

function holder(array $v): Holder
{
    return $v[0] instanceof Holder ? $v[0] : $v[1];
}

function show(Holder $h): string
{
    return sprintf("inner %s, list [%s], name %s, n %d, extra %s", get_debug_type($h->inner), implode(',', $h->list),
        $h->name, $h->n, $h->extra ?? 'unset');
}

foreach ([UserCache\Cache::getPool('sleep-keeps'), Resident\Cache::pool('sleep-keeps')] as $c) {
    echo get_class($c), ":\n";
    foreach (['clear', 'replace', 'append', 'unset'] as $how) {
        foreach (['inner', 'after', 'before'] as $where) {
            /* @: the holder's __sleep() names a property unset before it ran ('unset', 'before'). */
            $native = show(holder(unserialize(@serialize(make($how, $where)))));
            @$c->store('v', make($how, $where));
            $stored = show(holder($c->fetch('v')));
            echo "  $how, changer $where: $stored", $stored === $native ? '' : " (serialize(): $native)", "\n";
        }
    }
}
Changer::$holder = null;
?>
--EXPECT--
UserCache\Cache:
  clear, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  clear, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  clear, changer before: inner null, list [a], name before, n 1, extra dynamic
  replace, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  replace, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  replace, changer before: inner stdClass, list [replaced], name after, n 2, extra changed
  append, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  append, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  append, changer before: inner stdClass, list [a,appended], name before, n 1, extra dynamic
  unset, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  unset, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  unset, changer before: inner stdClass, list [a], name before, n 1, extra unset
Resident\Cache:
  clear, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  clear, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  clear, changer before: inner null, list [a], name before, n 1, extra dynamic
  replace, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  replace, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  replace, changer before: inner stdClass, list [replaced], name after, n 2, extra changed
  append, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  append, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  append, changer before: inner stdClass, list [a,appended], name before, n 1, extra dynamic
  unset, changer inner: inner Changer, list [a], name before, n 1, extra dynamic
  unset, changer after: inner stdClass, list [a], name before, n 1, extra dynamic
  unset, changer before: inner stdClass, list [a], name before, n 1, extra unset
