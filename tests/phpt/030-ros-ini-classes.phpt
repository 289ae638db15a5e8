--TEST--
RequestOverStatic for vendor classes: resident.request_over_static_classes names classes and Namespace\* prefixes
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_classes="Vendor\Pool, \Generated\*,Exact"
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('vendor', <<<'PHP'
namespace Vendor { class Pool { public static $pool = null; public static function get() { return self::$pool ??= new \ArrayObject(['built' => true]); } }
                   class Other { public static $n = 0; } }
namespace Generated\Meta { class Schema { public static $initialized = false; } }
namespace Generated { class Top { public static $initialized = false; } }
namespace { class Exact { public static $n = 0; } class ExactNot { public static $n = 0; } class GeneratedX { public static $n = 0; } }
PHP);

for ($i = 1; $i <= 2; $i++) {
    request(function () use ($file, $i) {
        require $file;
        printf("request %d: pool=%s other=%d schema=%s top=%s exact=%d exactNot=%d generatedX=%d\n", $i,
            Vendor\Pool::$pool === null ? 'null' : json_encode(Vendor\Pool::$pool->getArrayCopy()),
            Vendor\Other::$n, json_encode(Generated\Meta\Schema::$initialized), json_encode(Generated\Top::$initialized),
            Exact::$n, ExactNot::$n, GeneratedX::$n);
        Vendor\Pool::get();
        Vendor\Other::$n++;
        Generated\Meta\Schema::$initialized = true;
        Generated\Top::$initialized = true;
        Exact::$n++;
        ExactNot::$n++;
        GeneratedX::$n++;
    });
}
?>
--EXPECT--
request 1: pool=null other=0 schema=false top=false exact=0 exactNot=0 generatedX=0
request 2: pool={"built":true} other=0 schema=true top=true exact=1 exactNot=0 generatedX=0
