--TEST--
RequestOverStatic: a lazily restored cyclic graph that a request changes is digested once per object at the end (objects filled in during the walk are marked too) and published
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=on
--FILE--
<?php
require __DIR__ . '/ros.inc';
/* A doubly linked ring: walked as a tree, every node leads back two ways,
 * and the walk would branch at each of 256 levels. */
$file = class_file('Ring', '#[Resident\RequestOverStatic] class Ring {
    public static ?Node $head = null;
    public static int $changes = 0;
}
final class Node {
    public ?Node $next = null;
    public ?Node $prev = null;
    public function __construct(public int $n) {}
}');
request(function () use ($file) {
    require $file;
    $nodes = [];
    for ($i = 0; $i < 300; $i++) {
        $nodes[] = new Node($i);
    }
    foreach ($nodes as $i => $node) {
        $node->next = $nodes[($i + 1) % 300];
        $node->prev = $nodes[($i + 299) % 300];
    }
    Ring::$head = $nodes[0];
});
request(function () use ($file) {
    require $file;
    echo "restored: ", Ring::$head === null ? 'nothing' : 'the ring', ", shells made: ", ros_status()['shells_this_request'] > 0 ? 'yes' : 'no', "\n";
    // Changed through a shell: the end of the request digests the graph.
    Ring::$head->next->n = 1000;
});
request(function () use ($file) {
    require $file;
    $sum = 0;
    $count = 0;
    $node = Ring::$head;
    do {
        $sum += $node->n;
        $count++;
        $node = $node->next;
    } while ($node !== Ring::$head);
    echo "nodes: $count, second: ", Ring::$head->next->n, ", back from the last: ", Ring::$head->prev->prev->next->next === Ring::$head ? 'the head' : 'another', ", sum: $sum\n";
});
?>
--EXPECT--
restored: the ring, shells made: yes
nodes: 300, second: 1000, back from the last: the head, sum: 45849
