--TEST--
UserCache and Resident\Cache: a DateInterval, DateTime or DateTimeZone whose state was once read as properties (var_dump(), json_encode(), print_r()) restores as unserialize() restores it, without writing those names as properties (a DateInterval gave a deprecation notice per property); a subclass's own properties, also one named like the state (timezone_type), keep their values
--INI--
user_cache.enable_cli=1
error_reporting=E_ALL
--FILE--
<?php
class Stamped extends DateTimeImmutable
{
    public $ctime = 'default';
    public $timezone_type = 'user';
}
final class Tagged extends DateInterval
{
    public $rel = 'default';
}
$interval = new DateInterval('P1D');
json_encode($interval);
$interval->d = 5;
$stamped = new Stamped('2020-01-02 03:04:05', new DateTimeZone('Europe/Paris'));
$stamped->ctime = 'changed';
$tagged = new Tagged('P2D');
$tagged->rel = 'changed';
$relative = DateInterval::createFromDateString('next weekday');
$zone = new DateTimeZone('Europe/Paris');
$date = new DateTime('2021-01-01 10:00', new DateTimeZone('UTC'));
ob_start();
var_dump($stamped, $tagged, $relative, $zone);
print_r($date);
ob_end_clean();

$values = compact('interval', 'stamped', 'tagged', 'relative', 'zone', 'date');
$c = UserCache\Cache::getPool('date-state');
$r = Resident\Cache::pool('date-state');
foreach ($values as $key => $value) {
    $c->store($key, $value);
    $r->store($key, $value);
    $native = serialize(unserialize(serialize($value)));
    echo $key, ': ', serialize($c->fetch($key)) === $native && serialize($r->fetch($key)) === $native ? 'as unserialize() gives it' : 'differs', "\n";
}
var_dump($c->fetch('interval')->d, $c->fetch('stamped')->ctime, $c->fetch('stamped')->timezone_type, $c->fetch('tagged')->rel);
?>
--EXPECT--
interval: as unserialize() gives it
stamped: as unserialize() gives it
tagged: as unserialize() gives it
relative: as unserialize() gives it
zone: as unserialize() gives it
date: as unserialize() gives it
int(5)
string(7) "changed"
string(4) "user"
string(7) "changed"
