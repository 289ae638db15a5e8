--TEST--
UserCache: an ArrayObject or ArrayIterator (or a subclass) whose storage is an object is refused by every storing method, wherever it sits in the value, as the proposal refuses it (its restore would run the deprecation of such a storage mid-fetch); a value stored before under that key stays; Resident\Cache stores it, as serialize() does
--INI--
user_cache.enable_cli=1
resident.enable_cli=1
--FILE--
<?php
class Holder { public $ao; }
class MyArrayObject extends ArrayObject {}
$backed = fn (string $class = 'ArrayObject') => @new $class(new stdClass());
$c = UserCache\Cache::getPool('object-backed');
var_dump($c->store('k', 'before'));
$values = [
    'alone' => $backed(),
    'in an array' => ['x' => [$backed()]],
    'in a property' => (function () use ($backed) { $h = new Holder(); $h->ao = $backed(); return $h; })(),
    'an iterator' => $backed('ArrayIterator'),
    'a subclass' => $backed('MyArrayObject'),
];
foreach ($values as $what => $value) {
    foreach (['store', 'add', 'storeMultiple', 'remember'] as $method) {
        try {
            match ($method) {
                'store' => $c->store('k', $value),
                'add' => $c->add('new', $value),
                'storeMultiple' => $c->storeMultiple(['other' => 1, 'k' => $value]),
                'remember' => $c->remember('new', fn () => $value),
            };
            echo "$what, $method: stored\n";
        } catch (TypeError $e) {
            echo "$what, $method: ", $e->getMessage(), "\n";
        }
    }
}
var_dump($c->fetch('k'), $c->has('new'), $c->has('other'));
var_dump($c->store('array-backed', new ArrayObject([1, 2])), count($c->fetch('array-backed')));
$r = Resident\Cache::pool('object-backed');
// Its restore runs PHP 8.5's deprecation of such a storage, as unserialize() does.
var_dump($r->store('k', $backed()), get_class(@$r->fetch('k')));
?>
--EXPECT--
bool(true)
alone, store: The state of the ArrayObject object cannot be stored in the user cache
alone, add: The state of the ArrayObject object cannot be stored in the user cache
alone, storeMultiple: The state of the ArrayObject object cannot be stored in the user cache
alone, remember: The state of the ArrayObject object cannot be stored in the user cache
in an array, store: The state of the ArrayObject object cannot be stored in the user cache
in an array, add: The state of the ArrayObject object cannot be stored in the user cache
in an array, storeMultiple: The state of the ArrayObject object cannot be stored in the user cache
in an array, remember: The state of the ArrayObject object cannot be stored in the user cache
in a property, store: The state of the ArrayObject object cannot be stored in the user cache
in a property, add: The state of the ArrayObject object cannot be stored in the user cache
in a property, storeMultiple: The state of the ArrayObject object cannot be stored in the user cache
in a property, remember: The state of the ArrayObject object cannot be stored in the user cache
an iterator, store: The state of the ArrayIterator object cannot be stored in the user cache
an iterator, add: The state of the ArrayIterator object cannot be stored in the user cache
an iterator, storeMultiple: The state of the ArrayIterator object cannot be stored in the user cache
an iterator, remember: The state of the ArrayIterator object cannot be stored in the user cache
a subclass, store: The state of the MyArrayObject object cannot be stored in the user cache
a subclass, add: The state of the MyArrayObject object cannot be stored in the user cache
a subclass, storeMultiple: The state of the MyArrayObject object cannot be stored in the user cache
a subclass, remember: The state of the MyArrayObject object cannot be stored in the user cache
string(6) "before"
bool(false)
bool(false)
bool(true)
int(2)
bool(true)
string(11) "ArrayObject"
