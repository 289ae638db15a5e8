--TEST--
UserCache: a fetched array appends where a copy that never left the request does: after a negative key, after keys emptied, near PHP_INT_MAX, with and without objects (PHP 8.3 moved the next index after a negative one; each engine is compared with itself)
--INI--
user_cache.enable_cli=1
--FILE--
<?php
$c = UserCache\Cache::getPool('next-free');
$assigned = [];
$assigned[-5] = 1;
$emptied = [];
$emptied[-9] = 1;
unset($emptied[-9]);
$cases = [
    'literal negative' => [-5 => 1],
    'assigned negative' => $assigned,
    'negative with an object' => [-5 => new stdClass()],
    'emptied after a negative key' => $emptied,
    'near PHP_INT_MAX' => [PHP_INT_MAX - 1 => 'x'],
    'near PHP_INT_MAX with an object' => [PHP_INT_MAX - 1 => new stdClass()],
    'packed' => [1, 2, 3],
];
foreach ($cases as $name => $value) {
    $control = $value;
    $c->store($name, $value);
    $fetched = $c->fetch($name);
    $control[] = 'appended';
    $fetched[] = 'appended';
    printf("%s: %s\n", $name, array_keys($fetched) === array_keys($control) ? 'same keys' : 'control ' . json_encode(array_keys($control)) . ', fetched ' . json_encode(array_keys($fetched)));
}
// PHP_INT_MAX is taken: the next append fails as it does on the control.
$full = [PHP_INT_MAX => 'last'];
$c->store('full', $full);
$fetched = $c->fetch('full');
foreach (['control' => $full, 'fetched' => $fetched] as $name => $array) {
    try {
        $array[] = 'more';
        echo "$name: appended\n";
    } catch (Error $e) {
        echo "$name: ", $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
literal negative: same keys
assigned negative: same keys
negative with an object: same keys
emptied after a negative key: same keys
near PHP_INT_MAX: same keys
near PHP_INT_MAX with an object: same keys
packed: same keys
control: Cannot add element to the array as the next element is already occupied
fetched: Cannot add element to the array as the next element is already occupied
