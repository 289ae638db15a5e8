--TEST--
A shape resolved for one value serves the other values whose objects are laid out alike in the request (entries of one class under many keys), and only those: each comes back as stored (new objects, typed properties, left-out defaults), whatever was fetched before it; the same class with other dynamic properties (more variants than one layout keeps), a property that held spl_object_hash() of its object beside one that did not (a class copied directly), two classes laid out alike and a class laid out otherwise now are told apart; a class stored under its name in another case is the same class
--EXTENSIONS--
pcntl
--INI--
opcache.jit=off
resident.enable_cli=1
resident.zero_copy=1
resident.direct_classes=Tagged
--FILE--
<?php
use Resident\Cache;

#[AllowDynamicProperties]
final class User
{
    public function __construct(public int $id = 0, public string $name = 'nobody', public ?User $boss = null, public float $score = 0.5) {}
}

final class Twin1 { public int $a = 1; public string $b = 'x'; }
final class Twin2 { public int $a = 1; public string $b = 'x'; }

// Copied directly (resident.direct_classes): a property that held
// spl_object_hash() of its object names the fetched one.
final class Tagged extends DateTimeImmutable
{
    public string $oid = '';
    public int $n = 0;
}

$c = Cache::pool('shapes-alike');
for ($i = 0; $i < 50; $i++) {
    $c->store("user:$i", new User($i, "user$i", $i % 5 ? null : new User(-$i)));
}
$sum = 0;
$ids = [];
foreach ([3, 10, 49, 0, 3] as $i) {
    $u = $c->fetch("user:$i");
    $ids[] = spl_object_id($u);
    printf("user:%d: %d %s %s %.1f\n", $i, $u->id, $u->name, $u->boss ? 'boss ' . $u->boss->id . ' ' . $u->boss->name : 'no boss', $u->score);
    $keep[] = $u;
}
try {
    $keep[0]->id = 'not an int';
} catch (TypeError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

echo "-- dynamic properties: 12 variants of one class\n";
for ($v = 0; $v < 12; $v++) {
    $u = new User($v);
    for ($p = 0; $p <= $v % 12; $p++) {
        $u->{"extra$p"} = "$v.$p";
    }
    $c->store("variant:$v", $u);
}
$ok = 0;
for ($round = 0; $round < 2; $round++) {
    for ($v = 11; $v >= 0; $v--) {
        $u = $c->fetch("variant:$v");
        $extras = array_filter(get_object_vars($u), fn ($k) => str_starts_with($k, 'extra'), ARRAY_FILTER_USE_KEY);
        $want = [];
        for ($p = 0; $p <= $v; $p++) {
            $want["extra$p"] = "$v.$p";
        }
        $ok += $u->id === $v && $extras === $want;
    }
}
echo "$ok of 24 as stored\n";

echo "-- spl_object_hash() of its object, and a string\n";
$plain = new Tagged('2026-01-01');
$plain->oid = 'just a string';
$plain->n = 1;
$hashed = new Tagged('2026-01-02');
$hashed->oid = spl_object_hash($hashed);
$hashed->n = 2;
$c->store('plain', $plain);
$c->store('hashed', $hashed);
foreach (['plain', 'hashed', 'plain'] as $k) {
    $t = $c->fetch($k);
    echo "$k: n=$t->n, ", $t->oid === spl_object_hash($t) ? "its own hash" : $t->oid, ', ', $t->format('Y-m-d'), "\n";
}

echo "-- two classes laid out alike\n";
$c->store('twin1', new Twin1());
$c->store('twin2', new Twin2());
echo get_class($c->fetch('twin1')), ' ', get_class($c->fetch('twin2')), ' ', get_class($c->fetch('twin1')), "\n";

echo "-- stored by a process where the class was laid out otherwise, or named otherwise\n";
$pid = pcntl_fork();
if ($pid === 0) {
    // Before this class is declared here as above: another order of slots.
    eval('final class Later { public string $b = "other"; public int $a = 2; }');
    $ok = $c->store('later-other', new Later());
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
eval('final class Later { public int $a = 1; public string $b = "x"; }');
$c->store('later-here', new Later());
foreach (['later-here', 'later-other', 'later-here'] as $k) {
    $l = $c->fetch($k);
    echo "$k: ", get_class($l), " a=$l->a b=$l->b\n";
}
$pid = pcntl_fork();
if ($pid === 0) {
    // Declared here with its name in another case: the same class.
    eval('final class Casing { public int $a = 5; public string $b = "y"; }');
    exit($c->store('mixed-child', new Casing()) ? 0 : 1);
}
pcntl_waitpid($pid, $status);
eval('final class CASING { public int $a = 1; public string $b = "x"; }');
$c->store('mixed-here', new CASING());
foreach (['mixed-here', 'mixed-child'] as $k) {
    $m = $c->fetch($k);
    echo "$k: ", get_class($m), " a=$m->a b=$m->b\n";
}
?>
--EXPECT--
user:3: 3 user3 no boss 0.5
user:10: 10 user10 boss -10 nobody 0.5
user:49: 49 user49 no boss 0.5
user:0: 0 user0 boss 0 nobody 0.5
user:3: 3 user3 no boss 0.5
TypeError: Cannot assign string to property User::$id of type int
-- dynamic properties: 12 variants of one class
24 of 24 as stored
-- spl_object_hash() of its object, and a string
plain: n=1, just a string, 2026-01-01
hashed: n=2, its own hash, 2026-01-02
plain: n=1, just a string, 2026-01-01
-- two classes laid out alike
Twin1 Twin2 Twin1
-- stored by a process where the class was laid out otherwise, or named otherwise
int(0)
later-here: Later a=1 b=x
later-other: Later a=2 b=other
later-here: Later a=1 b=x
mixed-here: CASING a=1 b=x
mixed-child: CASING a=5 b=y
