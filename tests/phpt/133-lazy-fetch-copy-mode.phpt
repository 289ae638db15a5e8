--TEST--
resident.lazy_objects=1 in a request that copies (zero_copy=0): fetch() builds objects at once, since shells are filled from the segment, which a copying request does not keep mapped for it
--INI--
resident.enable_cli=1
resident.zero_copy=0
resident.testing=1
resident.lazy_objects=1
--FILE--
<?php
final class Node { public function __construct(public string $name, public ?Node $next = null) {} }
$c = Resident\Cache::pool('lazy-copy');
$c->store('g', new Node('a', new Node('b')));
$v = $c->fetch('g');
var_dump(Resident\Cache::status()['zero_copy'], ini_get('resident.lazy_objects'), Resident\Testing::isShell($v), Resident\Testing::isShell($v->next), $v->next->name);
?>
--EXPECT--
string(4) "copy"
string(1) "1"
bool(false)
bool(false)
string(1) "b"
