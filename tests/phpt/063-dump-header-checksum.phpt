--TEST--
A dump's checksum covers its header: one bit flipped in any field (the base address the next segment is mapped at above all) is refused by resident.restore_on_start and restore() alike, before it is used
--FILE--
<?php
require __DIR__ . '/child.inc';
$dump = sys_get_temp_dir() . '/resident-063-' . getmypid() . '.dump';
echo resident_child(sprintf('Resident\Cache::pool("p")->store("k", ["a" => 1]); var_dump(Resident\Cache::dump(%s));', var_export($dump, true)));
$good = file_get_contents($dump);

// Where each field of the header starts (src/store/dump.c, dump format 2).
$fields = ['magic' => 0, 'format' => 8, 'header_size' => 12, 'layout_version' => 16, 'npools' => 20, 'build_id' => 24,
    'version' => 120, 'base_address' => 152, 'total_size' => 160, 'heap_off' => 168, 'heap_size' => 176, 'nentries' => 184,
    'body_bytes' => 192, 'checksum' => 200, 'dumped_ms' => 208, 'encoding_version' => 216, 'header_sum' => 224];
$bad = "$dump.bad";
foreach ($fields as $field => $offset) {
    // Bit 32 of the address: another address, likely free, where the entries would not be.
    $at = $field === 'base_address' ? $offset + 4 : $offset;
    file_put_contents($bad, substr_replace($good, chr(ord($good[$at]) ^ 1), $at, 1));
    $out = resident_child(sprintf('var_dump(Resident\Cache::status()["restored_at_start"], Resident\Cache::restore(%s), Resident\Cache::pool("p")->fetch("k"));',
        var_export($bad, true)), ['resident.restore_on_start' => $bad]);
    echo "$field: ", str_replace([$bad, "\n\n"], ['FILE', "\n"], $out);
}
echo "intact: ", resident_child('var_dump(Resident\Cache::status()["restored_at_start"], Resident\Cache::pool("p")->fetch("k"));',
    ['resident.restore_on_start' => $dump]);
unlink($dump);
unlink($bad);
?>
--EXPECT--
int(1)
magic: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: it is not a Resident dump; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: it is not a Resident dump in Command line code on line 1
NULL
bool(false)
NULL
format: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: it was written by another version of Resident (dump format 3, this build reads format 2); starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: it was written by another version of Resident (dump format 3, this build reads format 2) in Command line code on line 1
NULL
bool(false)
NULL
header_size: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
layout_version: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
npools: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
build_id: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
version: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
base_address: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
total_size: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
heap_off: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
heap_size: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
nentries: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
body_bytes: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
checksum: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
dumped_ms: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
encoding_version: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
header_sum: 
Warning: PHP Startup: Resident: resident.restore_on_start: FILE is refused: its header checksum does not match: it was changed or damaged; starting empty in Unknown on line 0
Warning: Resident\Cache::restore(): FILE is refused: its header checksum does not match: it was changed or damaged in Command line code on line 1
NULL
bool(false)
NULL
intact: int(1)
array(1) {
  ["a"]=>
  int(1)
}
