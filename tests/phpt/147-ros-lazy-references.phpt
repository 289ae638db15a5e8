--TEST--
RequestOverStatic in a borrowing request, restored lazily: a static holding a PHP reference behaves as after an eager restore (a copy of its array does not share the reference: the lazy graph's own hold on it must not show)
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Keep', '#[Resident\RequestOverStatic] final class Keep { public static array $data = []; public static ?object $node = null; } final class Node { public int $n = 1; }');
request(function () use ($file) {
    require $file;
    $v = 1;
    Keep::$data = ['a' => &$v, 'b' => 2];
    Keep::$node = new Node();   // an object: the snapshot is a graph either way
});
request(function () use ($file) {
    require $file;
    $copy = Keep::$data;
    $copy['a'] = 99;
    var_dump(Keep::$data['a'], $copy['a']);
    echo 'restored lazily: ', var_export(ros_status()['shells_this_request'] > 0, true), "\n";
});
?>
--EXPECT--
int(1)
int(99)
restored lazily: true
