--TEST--
RequestOverStatic attribute: compile errors where it cannot apply
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
display_errors=1
html_errors=0
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$cases = [
    'non-static property' => 'class P { #[Resident\RequestOverStatic] public array $x = []; }',
    'promoted property' => 'class Q { public function __construct(#[Resident\RequestOverStatic] public array $x = []) {} }',
    'abstract method' => 'abstract class R { #[Resident\RequestOverStatic] abstract public function f(); }',
    'interface' => '#[Resident\RequestOverStatic] interface I {}',
    'trait' => '#[Resident\RequestOverStatic] trait T { public static $x; }',
    'function' => '#[Resident\RequestOverStatic] function f() { static $x; }',
    'class constant' => 'class S { #[Resident\RequestOverStatic] const C = 1; }',
    'repeated' => '#[Resident\RequestOverStatic] #[Resident\RequestOverStatic] class U {}',
];
foreach ($cases as $what => $code) {
    echo "$what: ";
    $status = request(function () use ($code) { eval($code); echo "compiled\n"; });
    echo "exit $status\n";
}
echo "valid uses compile:\n";
eval('#[Resident\RequestOverStatic] final class V { public static $a; public function f() { static $s = 1; return $s; } }
      class W { #[Resident\RequestOverStatic] private static ?array $p = null; #[Resident\RequestOverStatic] public function g() { static $s; } }
      enum E { #[Resident\RequestOverStatic] public static function h() { static $s = 0; return ++$s; } }');
var_dump((new ReflectionClass('V'))->getAttributes()[0]->newInstance() instanceof Resident\RequestOverStatic);
?>
--EXPECTF--
non-static property: 
Fatal error: #[Resident\RequestOverStatic] cannot be applied to non-static property P::$x: only static state is kept across requests in %s : eval()'d code on line 1
exit 255
promoted property: 
Fatal error: #[Resident\RequestOverStatic] cannot be applied to non-static property Q::$x: only static state is kept across requests in %s : eval()'d code on line 1
exit 255
abstract method: 
Fatal error: #[Resident\RequestOverStatic] cannot be applied to abstract method R::f(): it has no static variables in %s : eval()'d code on line 1
exit 255
interface: 
Fatal error: #[Resident\RequestOverStatic] cannot be applied to interface I: it holds no static state of its own in %s : eval()'d code on line 1
exit 255
trait: 
Fatal error: #[Resident\RequestOverStatic] cannot be applied to trait T: it holds no static state of its own in %s : eval()'d code on line 1
exit 255
function: 
Fatal error: Attribute "Resident\RequestOverStatic" cannot target function (allowed targets: class, method, property) in %s : eval()'d code on line 1
exit 255
class constant: 
Fatal error: Attribute "Resident\RequestOverStatic" cannot target class constant (allowed targets: class, method, property) in %s : eval()'d code on line 1
exit 255
repeated: 
Fatal error: Attribute "Resident\RequestOverStatic" must not be repeated in %s : eval()'d code on line 1
exit 255
valid uses compile:
bool(true)
