--TEST--
RequestOverStatic: without resident.request_over_static_immediate, a property marked publish: 'immediate' publishes at request end, as the others do
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
var_dump(ini_get('resident.request_over_static_immediate'));
$file = class_file('Live', '
final class Live {
    #[Resident\RequestOverStatic(publish: "immediate")]
    public static array $now = [];
}');
$dir = dirname($file);
$writer = pcntl_fork();
if ($writer === 0) {
    require $file;
    Live::$now[] = 'a';
    touch("$dir/wrote");
    wait_for("$dir/go");
    exit(0);
}
$seen = function () use ($file) {
    request(function () use ($file) {
        require $file;
        echo json_encode(Live::$now), "\n";
    });
};
wait_for("$dir/wrote");
echo "while the writer runs: ";
$seen();
touch("$dir/go");
pcntl_waitpid($writer, $status);
echo "once it ended: ";
$seen();
?>
--EXPECT--
string(1) "0"
while the writer runs: []
once it ended: ["a"]
