--TEST--
Borrowed (zero-copy) fetches cost no request memory, and writes separate a local copy
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
$c = Resident\Cache::pool();
$list = range(1, 100000);
$config = ['db' => ['host' => 'localhost', 'ports' => [5432, 5433]], 'name' => str_repeat('n', 1000)];
$c->store('list', $list);
$c->store('config', $config);
$c->store('str', str_repeat('s', 100000));
unset($list);

$status = Resident\Cache::status();
var_dump($status['zero_copy']);

$before = memory_get_usage();
$kept = [];
for ($i = 0; $i < 100; $i++) {
    $kept[] = $c->fetch('list');
    $kept[] = $c->fetch('config');
    $kept[] = $c->fetch('str');
}
$per_fetch = (memory_get_usage() - $before - 16 * 1024) / 300;
var_dump($per_fetch <= 0);

// Writes separate: the cached value is untouched.
$a = $c->fetch('config');
$a['db']['host'] = 'changed';
$a['new'] = 1;
$b = $c->fetch('config');
var_dump($b['db']['host'], isset($b['new']), $a['db']['host']);
$l = $c->fetch('list');
$l[0] = 'x';
sort($l);
var_dump($c->fetch('list')[0]);

// Fetched strings work everywhere strings do.
$s = $c->fetch('str');
var_dump(strlen($s), preg_match('/^s+$/', $s), $s[5]);
$k = $c->fetch('config')['db']['host'];
$arr = [$k => 1];
var_dump(array_key_first($arr));
echo "done\n";
?>
--EXPECT--
string(6) "borrow"
bool(true)
string(9) "localhost"
bool(false)
string(7) "changed"
int(1)
int(100000)
int(1)
string(1) "s"
string(9) "localhost"
done
