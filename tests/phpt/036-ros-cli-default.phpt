--TEST--
RequestOverStatic in the CLI without resident.enable_cli: off, the attribute compiles, forgetStatics() drops nothing
--INI--
resident.enable_cli=0
--FILE--
<?php
#[Resident\RequestOverStatic]
class Plain { public static int $n = 0; public static function f() { static $s = 0; return ++$s; } }
Plain::$n++;
var_dump(Plain::$n, Plain::f(), Plain::f());
var_dump(Resident\Cache::forgetStatics(), Resident\Cache::forgetStatics('Plain'));
var_dump(array_key_exists('request_over_static', Resident\Cache::status()));
$attr = (new ReflectionClass('Plain'))->getAttributes()[0];
var_dump($attr->getName(), $attr->newInstance() instanceof Resident\RequestOverStatic);
?>
--EXPECT--
int(1)
int(1)
int(2)
int(0)
int(0)
bool(false)
string(26) "Resident\RequestOverStatic"
bool(true)
