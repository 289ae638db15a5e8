--TEST--
UserCache: a value holding an enum case that is gone (the case removed, or made a constant) is a miss and its entry goes, as a bare value, inside an array, and in an exception's trace; fetchMultiple() gives the default for it; a case still there reads back; Resident\Cache throws the decoder's Error
--INI--
user_cache.enable_cli=1
zend.exception_ignore_args=0
--FILE--
<?php
function captured($case): RuntimeException
{
    return new RuntimeException('captured');
}

$c = UserCache\Cache::getPool('stale-enum');
// The child stores under the enums as they were; the parent reads under
// the enums as the code has them now.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('enum Status { case Active; case Retired; }
        enum Mode { case Fast; case Slow; }
        enum Level: int { case Low = 1; }');
    $values = ['removed' => Status::Retired, 'made-const' => Mode::Slow, 'kept' => Status::Active, 'backed' => Level::Low];
    foreach ($values as $key => $case) {
        $c->store($key, $case);
        $c->store("$key-array", ['case' => $case, 'n' => 1]);
        $c->store("$key-trace", captured($case));
    }
    $c->store('for-multiple', Status::Retired);
    Resident\Cache::pool('stale-enum-own')->store('removed', Status::Retired);
    exit(0);
}
pcntl_waitpid($pid, $status);

enum Status { case Active; }
enum Mode { case Fast; const Slow = 'slow'; }
enum Level: int { case Low = 1; }

foreach (['removed', 'made-const', 'kept', 'backed'] as $key) {
    $trace = $c->fetch("$key-trace", 'default');
    echo $key, ': ', var_export($c->fetch($key, 'default'), true), ', ',
        var_export($c->fetch("$key-array", 'default'), true), ', ',
        var_export($trace instanceof RuntimeException ? $trace->getTrace()[0]['args'][0] : $trace, true), ', left: ',
        var_export([$c->has($key), $c->has("$key-array"), $c->has("$key-trace")], true), "\n";
}
var_dump($c->fetchMultiple(['for-multiple', 'kept'], 'default'), $c->has('for-multiple'));

try {
    Resident\Cache::pool('stale-enum-own')->fetch('removed');
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
removed: 'default', 'default', 'default', left: array (
  0 => false,
  1 => false,
  2 => false,
)
made-const: 'default', 'default', 'default', left: array (
  0 => false,
  1 => false,
  2 => false,
)
kept: \Status::Active, array (
  'case' => 
  \Status::Active,
  'n' => 1,
), \Status::Active, left: array (
  0 => true,
  1 => true,
  2 => true,
)
backed: \Level::Low, array (
  'case' => 
  \Level::Low,
  'n' => 1,
), \Level::Low, left: array (
  0 => true,
  1 => true,
  2 => true,
)
array(2) {
  ["for-multiple"]=>
  string(7) "default"
  ["kept"]=>
  enum(Status::Active)
}
bool(false)
Error: Undefined constant Status::Retired
