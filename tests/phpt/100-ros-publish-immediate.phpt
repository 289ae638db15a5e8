--TEST--
RequestOverStatic: a static property marked publish: 'immediate' is published before the next built-in function call, while the writing request runs; a property of the default kind and a class publish when it ends; built-in calls with no write between them publish nothing more
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_immediate=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Live', '
final class Live {
    #[Resident\RequestOverStatic(publish: "immediate")]
    public static array $now = [];
    #[Resident\RequestOverStatic]
    public static array $atEnd = [];
}
#[Resident\RequestOverStatic]
final class Whole { public static array $items = []; }');
$dir = dirname($file);

function seen(string $file): void
{
    request(function () use ($file) {
        require $file;
        echo json_encode([Live::$now, Live::$atEnd, Whole::$items]), "\n";
    });
}

$writer = pcntl_fork();
if ($writer === 0) {
    require $file;
    Live::$now[] = 'a';
    Live::$atEnd[] = 'a';
    Whole::$items[] = 'a';
    touch("$dir/step1");
    wait_for("$dir/go1");
    Live::$now[] = 'b';
    Live::$now['nested']['deeper'] = 1;
    touch("$dir/step2");
    wait_for("$dir/go2");
    exit(0);
}
echo "while the writer runs, after its first write:\n";
wait_for("$dir/step1");
seen($file);
touch("$dir/go1");
echo "after its nested writes:\n";
wait_for("$dir/step2");
seen($file);
touch("$dir/go2");
pcntl_waitpid($writer, $status);
echo "once it ended:\n";
seen($file);
echo "publishes: ", ros_status()['publishes'], "\n";
?>
--EXPECT--
while the writer runs, after its first write:
[["a"],[],[]]
after its nested writes:
[{"0":"a","1":"b","nested":{"deeper":1}},[],[]]
once it ended:
[{"0":"a","1":"b","nested":{"deeper":1}},["a"],["a"]]
publishes: 4
