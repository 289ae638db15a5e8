--TEST--
A fetch of an object whose class OPcache holds and whose defaults are constant expressions, in a request that has not used that class yet, builds it (its defaults were not evaluated in this request: the fetch used to read a table that did not exist yet and crashed)
--EXTENSIONS--
pcntl
opcache
--INI--
resident.enable_cli=1
resident.testing=1
opcache.enable=1
opcache.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
const BASE = 40;
$file = class_file('Renderer', 'final class Renderer { public int $flags = JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES; public int $answer = BASE + 2; public string $title = "t"; }');
require $file;
$c = Resident\Cache::pool('ast');
// The store runs in a child: this process never instantiates Renderer.
request(function () use ($c) {
    $r = new Renderer();
    $r->title = 'stored';
    $c->store('one', $r);
    $c->store('list', ['a' => $r, 'b' => new Renderer()]);
});
$r = $c->fetch('one');
echo $r->flags, ' ', $r->answer, ' ', $r->title, "\n";
$l = Resident\Testing::fetchLazily($c, 'list');
echo $l['a']->title, ' ', $l['b']->title, ' ', $l['b']->answer, ' ', var_export($l['a'] === $l['b'], true), "\n";
var_dump(new Renderer() == $r);
?>
--EXPECT--
192 42 stored
stored t 42 false
bool(false)
