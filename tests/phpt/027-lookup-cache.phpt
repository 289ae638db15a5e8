--TEST--
Request-local lookup cache: a key fetched again is served from the memo until any worker stores, deletes or clears
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
$c = Resident\Cache::pool('memo');
$c->store('k', ['v' => 1]);
$c->store('other', 'x');
var_dump($c->fetch('k')['v'], $c->fetch('k')['v']);

// Another process replaces the key: the next fetch here sees it.
if (pcntl_fork() === 0) {
    $c->store('k', ['v' => 2]);
    exit(0);
}
pcntl_wait($status);
var_dump($c->fetch('k')['v']);

// A change to any other key empties the memo too; the value stays right.
if (pcntl_fork() === 0) {
    $c->store('other', 'y');
    $c->delete('k');
    exit(0);
}
pcntl_wait($status);
var_dump($c->fetch('k', 'deleted'), $c->fetch('other'));

// TTLs are honoured for memoized entries.
$c->store('short', 'soon gone', 1);
var_dump($c->fetch('short'));
usleep(1100000);
var_dump($c->fetch('short', 'expired'));
// Memo hits count as hits.
$before = $c->info()['hits'];
$c->fetch('other');
$c->fetch('other');
var_dump($c->info()['hits'] - $before);
?>
--EXPECT--
int(1)
int(1)
int(2)
string(7) "deleted"
string(1) "y"
string(9) "soon gone"
string(7) "expired"
int(2)
