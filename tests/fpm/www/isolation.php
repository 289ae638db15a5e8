<?php
// Endpoint for the per-pool segment test: ?op=...
header('X-Pid: ' . getmypid());
$c = Resident\Cache::pool('site');
switch ($_GET['op'] ?? '') {
    case 'store':
        echo json_encode($c->store($_GET['key'], $_GET['value']));
        break;
    case 'fetch':
        echo json_encode($c->fetch($_GET['key'], 'MISS'));
        break;
    case 'whoami':
        // Which segment this worker uses, which segment files it has mapped,
        // and whether it can open another file.
        $maps = array_values(array_unique(array_filter(array_map(
            fn ($l) => preg_match('#(/dev/shm/resident-\S+)#', $l, $m) ? $m[1] : null, file('/proc/self/maps')))));
        $other = $_GET['other'] ?? '';
        echo json_encode([
            'uid' => fileowner('/proc/self'),
            'segment' => Resident\Cache::status()['segment'] ?? null,
            'mapped' => $maps,
            'can_open_other' => $other !== '' && @fopen($other, 'r') !== false,
            // A segment inherited from the master: an anonymous shared mapping
            // of resident.memory bytes (php-fpm's scoreboard is one too, small).
            'anonymous_segments' => count(array_filter(file('/proc/self/maps'), function (string $l): bool {
                if (!preg_match('#^([0-9a-f]+)-([0-9a-f]+) .*/dev/zero \(deleted\)#', $l, $m)) {
                    return false;
                }
                return hexdec($m[2]) - hexdec($m[1]) === (int)ini_get('resident.memory') * 1024 * 1024;
            })),
        ]);
        break;
}
