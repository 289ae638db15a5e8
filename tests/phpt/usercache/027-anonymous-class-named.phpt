--TEST--
UserCache: an object of an anonymous class is refused naming the class as the engine does up to its NUL byte, as the proposal does: "DateTimeImmutable@anonymous objects cannot be stored in the user cache" for a subclass, "class@anonymous ..." for none; Resident\Cache keeps its own wording (and keeps those declared in files OPcache caches)
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('anonymous');
foreach ([
    'subclass' => fn () => new class ('2020-01-01') extends DateTimeImmutable {},
    'nested subclass' => fn () => ['in' => [new class () extends ArrayObject {}]],
    'interface only' => fn () => new class () implements Countable {
        public function count(): int
        {
            return 0;
        }
    },
    'plain' => fn () => new class () {},
] as $case => $make) {
    try {
        var_dump($c->store('k', $make()));
    } catch (TypeError $e) {
        echo "$case: ", $e->getMessage(), "\n";
    }
}
try {
    // Declared in eval()'d code: Resident\Cache keeps anonymous classes of
    // files OPcache caches, which this test's file may or may not be.
    Resident\Cache::pool('anonymous')->store('k', eval("return new class ('2020-01-01') extends DateTimeImmutable {};"));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($c->has('k'));
?>
--EXPECT--
subclass: DateTimeImmutable@anonymous objects cannot be stored in the user cache
nested subclass: ArrayObject@anonymous objects cannot be stored in the user cache
interface only: Countable@anonymous objects cannot be stored in the user cache
plain: class@anonymous objects cannot be stored in the user cache
Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value is an instance of an anonymous class declared in eval()'d code
bool(false)
