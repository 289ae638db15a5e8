--TEST--
RequestOverStatic: publish: 'immediate' publishes writes inside the objects a property holds, restored lazily or not; a value that cannot be kept is refused once, with a warning; what was published stays after a fatal error
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_immediate=1
resident.zero_copy=on
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Graph', '
final class Node {
    public array $tags = [];
    public ?Node $next = null;
    public function __construct(public string $name) {}
}
final class Graph {
    #[Resident\RequestOverStatic(publish: "immediate")]
    public static ?Node $root = null;
    #[Resident\RequestOverStatic(publish: "immediate")]
    public static array $handlers = [];
}');
$dir = dirname($file);
function seen(string $file): void
{
    request(function () use ($file) {
        require $file;
        echo json_encode([Graph::$root?->name, Graph::$root?->next?->tags, Graph::$handlers]),
            ' shells: ', ros_status()['shells_this_request'], "\n";
    });
}
/* A request in the background: after each of its steps it waits for the
 * test, which looks at what other requests see. */
function writer(string $file, array $steps): int
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        require $file;
        $dir = dirname($file);
        foreach ($steps as $i => $step) {
            $step();
            touch("$dir/done$i");
            wait_for("$dir/go$i");
        }
        exit(0);
    }
    return $pid;
}
function step(string $file, int $i, string $what): void
{
    $dir = dirname($file);
    wait_for("$dir/done$i");
    echo "$what:\n";
    seen($file);
    touch("$dir/go$i");
}

$pid = writer($file, [
    function () { Graph::$root = new Node('root'); Graph::$root->next = new Node('child'); },
    function () { Graph::$root->next->tags[] = 'nested'; },
    function () { Graph::$handlers[] = fn () => 1; },   // refused at touch(), line 34
]);
step($file, 0, 'a new graph');
step($file, 1, 'a write two objects deep');
step($file, 2, 'a closure');
pcntl_waitpid($pid, $status);
array_map('unlink', glob("$dir/{done,go}*", GLOB_BRACE));

echo "a request that changes the graph it restored, then fails:\n";
$pid = writer($file, [
    function () { Graph::$root->next->tags[] = 'again'; },
    function () { undefined_function(); },
]);
step($file, 0, 'while it runs');
pcntl_waitpid($pid, $status);
echo "once it failed:\n";
seen($file);
?>
--EXPECTF--
a new graph:
["root",[],[]] shells: 2
a write two objects deep:
["root",["nested"],[]] shells: 2

Warning: writer(): The static state of Graph cannot be kept across requests: cannot be cached: Graph::$handlers[0] is a Closure in %s on line 34
a closure:
["root",["nested"],[]] shells: 2
a request that changes the graph it restored, then fails:
while it runs:
["root",["nested","again"],[]] shells: 2

Fatal error: Uncaught Error: Call to undefined function undefined_function() in %s:64
Stack trace:
#0 %s(33): {closure%A}()
#1 %s(62): writer('/tmp/resident-r...', Array)
#2 {main}
  thrown in %s on line 64
once it failed:
["root",["nested","again"],[]] shells: 2
