--TEST--
Segments and dumps are stamped with the store layout, the value encoding and the PHP build: a dump of another one is refused, a named segment of another one is refused by the CLI, each time naming what differs and both sides
--FILE--
<?php
require __DIR__ . '/child.inc';
$pid = getmypid();
$dump = sys_get_temp_dir() . "/resident-064-$pid.dump";
$name = "phpt-064-$pid";
$segment = "/dev/shm/resident-$name";

// Changes a field and makes the checksum over the header match again, as
// a build that writes other values there would (src/store/dump.c, src/store/internal.h).
function patched(string $bytes, int $at, string $value, int $from, int $to, int $sumAt): string
{
    $bytes = substr_replace($bytes, $value, $at, strlen($value));
    $bytes = substr_replace($bytes, str_repeat("\0", 8), $sumAt, 8);
    return substr_replace($bytes, strrev(hash('fnv1a64', substr($bytes, $from, $to - $from), true)), $sumAt, 8);
}
function show(string $out, array $names): void
{
    echo strtr($out, $names);
}

echo resident_child(sprintf('Resident\Cache::pool("p")->store("k", 1); var_dump(Resident\Cache::dump(%s));', var_export($dump, true)));
$good = file_get_contents($dump);
$layout = unpack('V', $good, 16)[1];
$encoding = unpack('V', $good, 216)[1];
$build = rtrim(substr($good, 24, 96), "\0");
$names = [$dump => 'FILE', $build => 'BUILD',
    'store layout version ' . ($layout + 1) . ", this build uses $layout" => 'store layout version L+1, this build uses L',
    'value encoding version ' . ($encoding + 1) . ", this build uses $encoding" => 'value encoding version E+1, this build uses E'];
$variants = [
    'another store layout' => patched($good, 16, pack('V', $layout + 1), 0, 232, 224),
    'another value encoding' => patched($good, 216, pack('V', $encoding + 1), 0, 232, 224),
    'another PHP build' => patched($good, 24, str_pad('9.9.9 API0,NTS', 96, "\0"), 0, 232, 224),
];
foreach ($variants as $what => $bytes) {
    echo "a dump of $what:\n";
    file_put_contents($dump, $bytes);
    show(resident_child(sprintf('var_dump(Resident\Cache::status()["restored_at_start"], Resident\Cache::restore(%s), Resident\Cache::pool("p")->fetch("k"));',
        var_export($dump, true)), ['resident.restore_on_start' => $dump]), $names);
}
unlink($dump);

echo resident_child('var_dump(Resident\Cache::pool("p")->store("k", 1));', ['resident.segment' => $name]);
$names[$segment] = 'SEGMENT';
// Only the header, in place: the file is the whole segment.
$header = fn () => file_get_contents($segment, false, null, 0, 160);
$rewrite = function (string $bytes) use ($segment): void {
    $f = fopen($segment, 'r+');
    fwrite($f, $bytes);
    fclose($f);
};
$good = $header();
$variants = [
    'another store layout' => patched($good, 8, pack('V', $layout + 1), 8, 152, 152),
    'another value encoding' => patched($good, 16, pack('V', $encoding + 1), 8, 152, 152),
    'another PHP build' => patched($good, 24, str_pad('9.9.9 API0,NTS', 96, "\0"), 8, 152, 152),
];
foreach ($variants as $what => $bytes) {
    echo "a segment of $what:\n";
    $rewrite($bytes);
    show(resident_child('echo Resident\Cache::status()["reason"], "\n";', ['resident.segment' => $name]), $names);
    clearstatcache();
    var_dump($header() === $bytes);
}
$rewrite($good);
echo "intact again: ", resident_child('var_dump(Resident\Cache::pool("p")->fetch("k"));', ['resident.segment' => $name]);
unlink($segment);
?>
--EXPECT--
int(1)
a dump of another store layout:

Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: it was written with store layout version L+1, this build uses L; starting empty in Unknown on line 0

Warning: Resident\Cache::restore(): FILE is refused: it was written with store layout version L+1, this build uses L in Command line code on line 1
NULL
bool(false)
NULL
a dump of another value encoding:

Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: it was written with value encoding version E+1, this build uses E; starting empty in Unknown on line 0

Warning: Resident\Cache::restore(): FILE is refused: it was written with value encoding version E+1, this build uses E in Command line code on line 1
NULL
bool(false)
NULL
a dump of another PHP build:

Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: it was written by another PHP build ("9.9.9 API0,NTS"; this one is "BUILD"); starting empty in Unknown on line 0

Warning: Resident\Cache::restore(): FILE is refused: it was written by another PHP build ("9.9.9 API0,NTS"; this one is "BUILD") in Command line code on line 1
NULL
bool(false)
NULL
bool(true)
a segment of another store layout:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use SEGMENT: it was made with store layout version L+1, this build uses L in Unknown on line 0
cannot create the segment: cannot use SEGMENT: it was made with store layout version L+1, this build uses L
bool(true)
a segment of another value encoding:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use SEGMENT: it was made with value encoding version E+1, this build uses E in Unknown on line 0
cannot create the segment: cannot use SEGMENT: it was made with value encoding version E+1, this build uses E
bool(true)
a segment of another PHP build:

Warning: PHP Startup: Resident is disabled: cannot create the segment: cannot use SEGMENT: it was made by another PHP build ("9.9.9 API0,NTS"; this one is "BUILD") in Unknown on line 0
cannot create the segment: cannot use SEGMENT: it was made by another PHP build ("9.9.9 API0,NTS"; this one is "BUILD")
bool(true)
intact again: int(1)
