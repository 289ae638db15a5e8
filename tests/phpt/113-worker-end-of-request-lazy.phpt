--TEST--
Cache::endOfRequest(): lazily restored objects still read the segment, so it refuses for as long as they live (zero_copy=1 before the first call); once a process calls it, such restores copy
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.testing=1
resident.check_borrowed=1
--FILE--
<?php
use Resident\Cache;

final class Node { public function __construct(public string $name) {} }
$c = Cache::pool('lazy');
echo "-- lazily restored objects, before the process's first endOfRequest()\n";
$c->store('lazy', new Node('lazy'));
$shell = Resident\Testing::fetchLazily($c, 'lazy');
var_dump(Resident\Testing::isShell($shell));
var_dump(Cache::endOfRequest());
var_dump($shell->name);
echo "-- still refused at the next boundary: the graph lives as long as the process's request\n";
var_dump(Cache::endOfRequest());
echo "-- a restore after the first call copies: the objects own what they hold\n";
$copy = Resident\Testing::fetchLazily($c, 'lazy');
var_dump(Resident\Testing::isShell($copy), $copy->name);

?>
--EXPECTF--
-- lazily restored objects, before the process's first endOfRequest()
bool(true)

Warning: Resident\Cache::endOfRequest(): Objects restored lazily in this request (Resident\Testing::fetchLazily(), RequestOverStatic before the first endOfRequest()) still read the segment; nothing was released in %s on line %d
bool(false)
string(4) "lazy"
-- still refused at the next boundary: the graph lives as long as the process's request

Warning: Resident\Cache::endOfRequest(): Objects restored lazily in this request (Resident\Testing::fetchLazily(), RequestOverStatic before the first endOfRequest()) still read the segment; nothing was released in %s on line %d
bool(false)
-- a restore after the first call copies: the objects own what they hold
bool(false)
string(4) "lazy"
