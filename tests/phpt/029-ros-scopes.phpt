--TEST--
RequestOverStatic, property and method scope: only what carries the attribute is kept, each in its own snapshot
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/ros.inc';
$file = class_file('Scoped', <<<'PHP'
class Scoped {
    #[Resident\RequestOverStatic]
    public static array $kept = [];
    public static array $dropped = [];
    #[Resident\RequestOverStatic]
    public static function keptCounter(): int { static $n = 0; return ++$n; }
    public static function droppedCounter(): int { static $n = 0; return ++$n; }
}
class Child extends Scoped {
    public static function childCounter(): int { static $n = 0; return ++$n; }
}
trait Memo {
    #[Resident\RequestOverStatic]
    public static function memo(): int { static $m = 0; return ++$m; }
}
class UsesTrait { use Memo; }
PHP);

for ($i = 1; $i <= 3; $i++) {
    request(function () use ($file, $i) {
        require $file;
        printf("request %d: kept=%d dropped=%d keptCounter=%d droppedCounter=%d child=%d trait=%d\n",
            $i, count(Scoped::$kept), count(Scoped::$dropped), Scoped::keptCounter(), Scoped::droppedCounter(),
            Child::childCounter(), UsesTrait::memo());
        Scoped::$kept[] = $i;
        Scoped::$dropped[] = $i;
    });
}
// Scoped::$kept, Scoped::keptCounter() and UsesTrait::memo()
var_dump(ros_status()['snapshots']);
?>
--EXPECT--
request 1: kept=0 dropped=0 keptCounter=1 droppedCounter=1 child=1 trait=1
request 2: kept=1 dropped=0 keptCounter=2 droppedCounter=1 child=1 trait=2
request 3: kept=2 dropped=0 keptCounter=3 droppedCounter=1 child=1 trait=3
int(3)
