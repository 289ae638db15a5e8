--TEST--
RequestOverStatic: a snapshot that finds no room in the segment is not published, with a warning naming Resident's own pool; the request's result stands
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.memory=4M
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Big', <<<'PHP'
#[Resident\RequestOverStatic]
class Big {
    public static ?string $blob = null;
}
PHP);

// Pinned entries are never evicted: fill the segment with them.
$pinned = Resident\Cache::pool('fill', pinned: true);
$chunk = str_repeat('x', 64 * 1024);
for ($i = 0; @$pinned->store("k$i", $chunk); $i++);
echo "filled: ", $i > 10 ? 'yes' : "no ($i)", "\n";

request(function () use ($file) {
    require $file;
    Big::$blob = str_repeat('y', 512 * 1024);
    echo "request done\n";
});
request(function () use ($file) {
    require $file;
    var_dump(Big::$blob);   // nothing was kept
});
?>
--EXPECTF--
filled: yes
request done

Warning: PHP Request Shutdown: No room for Resident's own entry "class:big" in pool (statics) (%d bytes): what is left is pinned or still read by requests in flight in Unknown on line 0

Warning: PHP Request Shutdown: The static state of Big cannot be kept across requests: it could not be stored in Unknown on line 0
NULL
