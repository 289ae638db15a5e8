--TEST--
UserCache: an object stored by its properties whose class has gained __unserialize() since is restored through it, as unserialize() restores such a value: the object as made (defaults), then __unserialize() given the properties under the names they were stored by, a numeric name as an integer key; Resident\Cache alike (the proposal's gained-restore-hooks and serialize-hooks tests)
--EXTENSIONS--
pcntl
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('unserialize-now');
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class Gains { public $a = 1; protected $b = 2; private $c = 3; public $list = [1, 2]; }
        class Sleeps { public $kept = "k"; public $dropped = "d";
            public function __sleep(): array { return ["kept"]; } public function __wakeup(): void {} }');
    $values = ['gains' => [new Gains(), 'x'], 'sleeps' => new Sleeps()];
    foreach ($values as $key => $value) {
        $c->store($key, $value);
        Resident\Cache::pool('unserialize-now')->store($key, $value);
        $c->store("native-$key", serialize($value));
    }
    exit(0);
}
pcntl_waitpid($pid, $status);

eval('class Gains { public $a = "default"; protected $b; private $c; public $list;
        public function __unserialize(array $data): void {
            echo "Gains::__unserialize, a is {$this->a}: ", json_encode($data), "\n";
            $this->a = $data["a"] * 10;
        } }
    class Sleeps { public $kept; public $dropped = "default";
        public function __unserialize(array $data): void {
            echo "Sleeps::__unserialize: ", json_encode($data), "\n";
        } }');
foreach (['gains', 'sleeps'] as $key) {
    echo "$key:\n";
    $native = unserialize($c->fetch("native-$key"));
    $fetched = $c->fetch($key);
    $resident = Resident\Cache::pool('unserialize-now')->fetch($key);
    var_dump($fetched == $native, $resident == $native);
}
var_dump($c->fetch('gains')[0]->a);

#[AllowDynamicProperties]
class OnlyUnserialize
{
    public $got;

    public function __unserialize(array $data): void
    {
        $this->got = [gettype(array_key_first($data)), $data[7] ?? null];
    }
}
#[AllowDynamicProperties]
class SleepsAndUnserializes
{
    public $got;

    public function __sleep(): array
    {
        return ['7'];
    }

    public function __unserialize(array $data): void
    {
        $this->got = [gettype(array_key_first($data)), $data[7] ?? null];
    }
}
foreach ([new OnlyUnserialize(), new SleepsAndUnserializes()] as $object) {
    unset($object->got);
    $object->{'7'} = 'seven';
    $c->store('numeric', [$object]);
    $got = $c->fetch('numeric')[0]->got;
    echo get_class($object), ': ', json_encode($got), ', as unserialize(): ', var_export($got === unserialize(serialize([$object]))[0]->got, true), "\n";
}
?>
--EXPECT--
gains:
Gains::__unserialize, a is default: {"a":1,"\u0000*\u0000b":2,"\u0000Gains\u0000c":3,"list":[1,2]}
Gains::__unserialize, a is default: {"a":1,"\u0000*\u0000b":2,"\u0000Gains\u0000c":3,"list":[1,2]}
Gains::__unserialize, a is default: {"a":1,"\u0000*\u0000b":2,"\u0000Gains\u0000c":3,"list":[1,2]}
bool(true)
bool(true)
sleeps:
Sleeps::__unserialize: {"kept":"k"}
Sleeps::__unserialize: {"kept":"k"}
Sleeps::__unserialize: {"kept":"k"}
bool(true)
bool(true)
Gains::__unserialize, a is default: {"a":1,"\u0000*\u0000b":2,"\u0000Gains\u0000c":3,"list":[1,2]}
int(10)
OnlyUnserialize: ["integer","seven"], as unserialize(): true
SleepsAndUnserializes: ["integer","seven"], as unserialize(): true
