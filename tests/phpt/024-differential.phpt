--TEST--
Differential: fetch(store($v)) is indistinguishable from unserialize(serialize($v)) for a corpus of 200+ values
--EXTENSIONS--
mbstring
--INI--
resident.enable_cli=1
resident.memory=64M
include_path=.:/usr/share/php
; Debian's Carbon 2.65 predates PHP 8.4 and trips its deprecations at compile time.
error_reporting=E_ALL & ~E_DEPRECATED
resident.direct_classes="Carbon\Carbon,Carbon\CarbonImmutable"
--FILE--
<?php
if (is_file('/usr/share/php/Carbon/autoload.php')) {
    require '/usr/share/php/Carbon/autoload.php';
}
require __DIR__ . '/corpus.inc';
$c = Resident\Cache::pool('differential');
$corpus = resident_corpus();
printf("%s values\n", count($corpus) >= 200 ? 'at least 200' : 'only ' . count($corpus));
foreach ($corpus as $i => $v) {
    if (!$c->store("v$i", $v)) {
        echo "v$i: not stored\n";
    }
}
$differ = 0;
foreach ($corpus as $i => $v) {
    OrderHook::$order = [];
    $expected = unserialize(serialize($v));
    $expectedOrder = OrderHook::$order;
    OrderHook::$order = [];
    $fetched = $c->fetch("v$i");
    if (resident_dump($fetched) !== resident_dump($expected) || OrderHook::$order !== $expectedOrder) {
        $differ++;
        echo "v$i differs:\n--- unserialize(serialize())\n", resident_dump($expected), "--- fetch(store())\n", resident_dump($fetched);
        echo "hook order: ", json_encode($expectedOrder), " vs ", json_encode(OrderHook::$order), "\n";
    }
    // A second fetch is another graph: no object is shared with the first.
    if (is_object($fetched) && !$fetched instanceof UnitEnum && $c->fetch("v$i") === $fetched) {
        echo "v$i: two fetches returned the same object\n";
    }
}
echo "differing: $differ\n";
?>
--EXPECT--
at least 200 values
differing: 0
