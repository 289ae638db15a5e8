--TEST--
Objects: records of classes with few and with more than 64 declared properties (a mask of those present, or a marker for each left out) come back as unserialize() gives them, also after the class changed
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
--FILE--
<?php
// A class of $n properties p0.. with defaults, the first typed, the last
// private; $shift properties in front move the slots of a later version.
function wide_class(string $name, int $n, string $default, int $shift = 0): string
{
    $props = '';
    for ($i = 0; $i < $shift; $i++) {
        $props .= "public \$front$i = 'front';\n";
    }
    $props .= "public int \$p0 = 0;\n";
    for ($i = 1; $i < $n - 1; $i++) {
        $props .= "public \$p$i = '$default';\n";
    }
    $props .= 'private $p' . ($n - 1) . " = '$default';\n";
    return "class $name {\n$props public function set(int \$i, mixed \$v): void { \$this->{'p' . \$i} = \$v; } }";
}
function deploy(string $code, callable $then): void
{
    if (pcntl_fork() === 0) {
        eval($code);
        $then(Resident\Cache::pool('wide'));
        exit(0);
    }
    pcntl_wait($status);
}
function same(object $a, object $b): string
{
    return serialize($a) === serialize($b) ? 'same' : "DIFFERENT:\n" . serialize($a) . "\n" . serialize($b);
}

deploy(wide_class('Narrow', 10, 'd') . wide_class('Wide', 70, 'd') . wide_class('Edge', 64, 'd'), function ($cache) {
    foreach (['Narrow' => 10, 'Wide' => 70, 'Edge' => 64] as $class => $n) {
        $none = new $class();                      // every property at its default
        $some = new $class();
        $some->p0 = 42;
        $some->set(1, 'one');
        $some->set($n - 1, ['last']);              // the private one
        $some->set(intdiv($n, 2), null);
        $all = new $class();
        for ($i = 1; $i < $n; $i++) {
            $all->set($i, $i);
        }
        $cache->store("$class-none", $none);
        $cache->store("$class-some", $some);
        $cache->store("$class-all", $all);
        $cache->store("$class-list", [$none, $some, $all, $some]);
        echo "$class: ", same($cache->fetch("$class-none"), $none), ' ', same($cache->fetch("$class-some"), $some), ' ',
            same($cache->fetch("$class-all"), $all), ' ';
        [$a, $b, $c, $d] = $cache->fetch("$class-list");
        echo same($a, $none), ' ', same($b, $some), ' ', same($c, $all), ' ', var_export($b === $d, true), "\n";
        $cache->store("$class-expect", serialize([$none, $some, $all]));
    }
});

// Every default changed, two properties added in front (the slots move).
deploy(wide_class('Narrow', 10, 'e', 2) . wide_class('Wide', 70, 'e', 2) . wide_class('Edge', 64, 'e', 2), function ($cache) {
    foreach (['Narrow', 'Wide', 'Edge'] as $class) {
        [$none, $some, $all] = unserialize($cache->fetch("$class-expect"));
        echo "$class changed: ", same($cache->fetch("$class-none"), $none), ' ', same($cache->fetch("$class-some"), $some), ' ',
            same($cache->fetch("$class-all"), $all), "\n";
    }
});
?>
--EXPECT--
Narrow: same same same same same same true
Wide: same same same same same same true
Edge: same same same same same same true
Narrow changed: same same same
Wide changed: same same same
Edge changed: same same same
