--TEST--
RequestOverStatic: the publish argument is checked at compile time ('request-end' anywhere, 'immediate' on a static property only, a literal string) and by the attribute's constructor
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/ros.inc';
foreach ([
    'class A { #[Resident\RequestOverStatic(publish: "soon")] public static array $x = []; }',
    'class B { #[Resident\RequestOverStatic(publish: 1)] public static array $x = []; }',
    'const PUBLISH_WHEN = "immediate"; class C { #[Resident\RequestOverStatic(publish: PUBLISH_WHEN)] public static array $x = []; }',
    'class D { #[Resident\RequestOverStatic(publish: "immediate", also: 1)] public static array $x = []; }',
    '#[Resident\RequestOverStatic(publish: "immediate")] class E { public static array $x = []; }',
    'class F { #[Resident\RequestOverStatic("immediate")] public static function f() { static $n = 0; } }',
] as $code) {
    request(fn () => eval($code));
}

eval('#[Resident\RequestOverStatic(publish: "request-end")] class G { public static int $n = 0; }
      class H {
          #[Resident\RequestOverStatic("immediate")] public static int $n = 0;
          #[Resident\RequestOverStatic(publish: "request-end")] public static function f() { static $n = 0; }
      }');
foreach ([new ReflectionClass('G'), new ReflectionProperty('H', 'n'), new ReflectionMethod('H', 'f')] as $where) {
    var_dump($where->getAttributes()[0]->newInstance()->publish);
}
var_dump((new Resident\RequestOverStatic())->publish);
try {
    new Resident\RequestOverStatic('later');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
Fatal error: #[Resident\RequestOverStatic] on A::$x: publish must be 'request-end' or 'immediate', 'soon' given in %s : eval()'d code on line 1

Fatal error: #[Resident\RequestOverStatic] on B::$x: publish must be the literal string 'request-end' or 'immediate', int given in %s : eval()'d code on line 1

Fatal error: #[Resident\RequestOverStatic] on C::$x: publish must be the literal string 'request-end' or 'immediate', a constant expression given in %s : eval()'d code on line 1

Fatal error: #[Resident\RequestOverStatic] on D::$x: takes one argument, publish: 'request-end' or 'immediate' in %s : eval()'d code on line 1

Fatal error: #[Resident\RequestOverStatic] on E: publish: 'immediate' applies to a static property only in %s : eval()'d code on line 1

Fatal error: #[Resident\RequestOverStatic] on F::f(): publish: 'immediate' applies to a static property only in %s : eval()'d code on line 1
string(11) "request-end"
string(9) "immediate"
string(11) "request-end"
string(11) "request-end"
Resident\RequestOverStatic::__construct(): Argument #1 ($publish) must be "request-end" or "immediate", "later" given
