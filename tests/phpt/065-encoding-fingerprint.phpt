--TEST--
RV_ENCODING_VERSION: the definitions of the stored encoding (value kinds, graph records, date codec states) match the fingerprint recorded next to the version, so that changing them without deciding on a bump fails here
--SKIPIF--
<?php if (!is_file(__DIR__ . '/../../src/value/graph.h')) die('skip needs the source tree'); ?>
--FILE--
<?php
$src = dirname(__DIR__, 2) . '/src/value';
// Comments and layout do not count; enums, structs and RV_ macros do.
$code = fn (string $file) => preg_replace('#/\*.*?\*/|//[^\n]*#s', '', file_get_contents("$src/$file"));
$flat = fn (string $c) => trim(preg_replace('/\s+/', ' ', $c));
$definitions = [];
preg_match_all('/^#define RV_KIND_\w+.*$/m', $code('value.h'), $m);
array_push($definitions, ...array_map($flat, $m[0]));
$graph = $code('graph.h');
preg_match_all('/^#define RV_\w+.*$/m', $graph, $m);
array_push($definitions, ...array_map($flat, $m[0]));
preg_match_all('/\benum\s*\{[^}]*\}\s*;|\btypedef struct \w+\s*\{[^}]*\}\s*\w+\s*;/', $graph, $m);
array_push($definitions, ...array_map($flat, $m[0]));
preg_match_all('/\btypedef struct (?:date|timezone|interval)_state\s*\{[^}]*\}\s*\w+\s*;/', $code('date.c'), $m);
array_push($definitions, ...array_map($flat, $m[0]));
$fingerprint = substr(sha1(implode("\n", $definitions)), 0, 16);

preg_match('/encoding fingerprint ([0-9a-f]{16})/', file_get_contents("$src/value.h"), $recorded);
if (($recorded[1] ?? '') === $fingerprint) {
    echo "the encoding's definitions are the ones recorded with RV_ENCODING_VERSION\n";
} else {
    echo "The stored encoding's definitions changed (fingerprint $fingerprint, recorded ", $recorded[1] ?? 'none', ").\n",
        "If what a value area holds changed, bump RV_ENCODING_VERSION in src/value/value.h (segments and dumps of the\n",
        "old encoding are then recreated or refused instead of misread); either way, record $fingerprint there.\n";
}
?>
--EXPECT--
the encoding's definitions are the ones recorded with RV_ENCODING_VERSION
