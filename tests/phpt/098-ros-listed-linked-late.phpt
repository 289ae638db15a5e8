--TEST--
RequestOverStatic: listed classes are restored however they are declared (bound when their file loads, declared at run time when their parent is autoloaded, matched by a prefix), and classes of other files are not looked at again
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.request_over_static_classes="Listed\Early, Listed\Late, Other\*"
--FILE--
<?php
require __DIR__ . '/ros.inc';
$files = [
    'Listed\Base' => class_file('Base', 'namespace Listed; class Base { public static int $v = 0; }'),
    'Listed\Early' => class_file('Early', 'namespace Listed; class Early { public static int $v = 0; }'),
    'Listed\Late' => class_file('Late', 'namespace Listed; class Late extends Base { public static int $v = 0; }'),
    'Other\Thing' => class_file('Thing', 'namespace Other; final class Thing { public static int $v = 0; }'),
    'Plain' => class_file('Plain', 'class Plain { public static int $v = 0; } class Plain2 extends Plain {}'),
];
spl_autoload_register(function (string $class) use ($files) {
    if (isset($files[$class])) {
        require $files[$class];
    }
});
for ($r = 1; $r <= 3; $r++) {
    request(function () use ($r) {
        // Eval'd code is compiled too: a listed class declared there.
        eval('namespace Other; class Evald { public static int $v = 0; }');
        $classes = ['Plain', 'Listed\Early', 'Listed\Late', 'Other\Thing', 'Other\Evald'];
        $seen = [];
        foreach ($classes as $class) {
            $seen[] = $class::$v;
            $class::$v++;
        }
        echo "request $r: ", implode(' ', $seen), ", base ", Listed\Base::$v, "\n";
    });
}
?>
--EXPECT--
request 1: 0 0 0 0 0, base 0
request 2: 0 1 1 1 1, base 0
request 3: 0 2 2 2 2, base 0
