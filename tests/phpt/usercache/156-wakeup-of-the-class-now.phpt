--TEST--
UserCache: an object restores through the __wakeup() its class has when it is read, as unserialize() does: a class that gained __wakeup() since the value was stored has it called (with the properties in place), one that lost it has none called; a DateTime subclass that gained one is restored as before
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('wakeup-now');
// The child stores under the classes as they were; the parent reads under
// the classes as the code has them now.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class Gains { public $a = 1; protected $b = 2; private $c = 3; }
        class Loses { public $a = 1; public function __wakeup(): void { echo "never\n"; } }
        class Stamp extends DateTimeImmutable { public string $label = "x"; }');
    exit($c->store('gains', [new Gains(), new Gains()]) && $c->store('loses', new Loses())
        && $c->store('stamp', new Stamp('2020-01-02 03:04:05 UTC')) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

eval('class Gains { public $a; protected $b; private $c;
        public function __wakeup(): void { echo "wakeup: {$this->a} {$this->b} {$this->c}\n"; } }
    class Loses { public $a; }
    class Stamp extends DateTimeImmutable { public string $label = "x";
        public function __wakeup(): void { echo "Stamp::__wakeup\n"; } }');
var_dump(count($c->fetch('gains')), $c->fetch('loses')->a, $c->fetch('stamp')->format(DATE_ATOM));
?>
--EXPECT--
int(0)
wakeup: 1 2 3
wakeup: 1 2 3
int(2)
int(1)
string(25) "2020-01-02T03:04:05+00:00"
