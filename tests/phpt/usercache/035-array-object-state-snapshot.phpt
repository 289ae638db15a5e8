--TEST--
UserCache: what an ArrayObject holds is stored as it was when its state was taken: a later hook that writes to it (ArrayObject writes its storage in place, without separating it) changed the stored value too (203 elements stored for 3, 202 for 2), as serialize() would not
--INI--
resident.enable_cli=1
--FILE--
<?php
final class Grower
{
    public ?ArrayObject $target = null;
    public function __serialize(): array
    {
        for ($i = 0; $i < 200; $i++) {
            $this->target[] = "x$i";
        }
        return [];
    }
    public function __unserialize(array $data): void {}
}
$c = UserCache\Cache::getPool('array-object-snapshot');

$grower = new Grower();
$inside = new ArrayObject();
$grower->target = $inside;
$inside['grower'] = $grower;
$inside['b'] = 'y';
$inside['c'] = 'z';
var_dump($c->store('inside', $inside), count($inside));
$fetched = $c->fetch('inside');
var_dump(count($fetched), $fetched['grower'] instanceof Grower, $fetched['c']);

$later = new ArrayObject(['b' => 'y', 'c' => 'z']);
$laterGrower = new Grower();
$laterGrower->target = $later;
var_dump($c->store('later', [$later, $laterGrower]), count($later), count($c->fetch('later')[0]));
$grower->target = $laterGrower->target = null;
?>
--EXPECT--
bool(true)
int(203)
int(3)
bool(true)
string(1) "z"
bool(true)
int(202)
int(2)
