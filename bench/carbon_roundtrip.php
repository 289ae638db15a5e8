<?php
/*
 * N store + fetch round trips of one Carbon date through Resident, or N
 * unserialize(serialize()) of it: the loop callgrind counts for issue 26
 * (bench/README.md, "Carbon without configuration"). Run it twice, with
 * N = 200 and N = 1200, and take (total(1200) - total(200)) / 1000 as the
 * instructions of one round trip: startup, autoloading and the first,
 * planned store cancel out.
 *
 *   php8.2 -n -d extension=mbstring bench/carbon_roundtrip.php resident|serialize N [immutable]
 */
require_once '/usr/share/php/Carbon/autoload.php';

[$mode, $n] = [$argv[1] ?? 'resident', (int)($argv[2] ?? 1000)];
$class = ($argv[3] ?? '') === 'immutable' ? Carbon\CarbonImmutable::class : Carbon\Carbon::class;
$date = new $class('2024-01-02 03:04:05.678901', 'Asia/Tokyo');
if ($mode === 'resident') {
    $cache = Resident\Cache::pool('bench');
    $cache->store('k', $date);
    $got = $cache->fetch('k');
    for ($i = 0; $i < $n; $i++) {
        $cache->store('k', $date);
        $got = $cache->fetch('k');
    }
} else {
    $got = unserialize(serialize($date));
    for ($i = 0; $i < $n; $i++) {
        $got = unserialize(serialize($date));
    }
}
if ($got->format('Y-m-d H:i:s.u e') !== $date->format('Y-m-d H:i:s.u e')) {
    throw new RuntimeException('the round trip changed the date');
}
