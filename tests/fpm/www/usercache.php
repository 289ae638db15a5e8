<?php
// Endpoint for the UserCache\Cache tests under php-fpm (tests/fpm/usercache.php): ?op=...
header('X-Pid: ' . getmypid());
$c = UserCache\Cache::getPool($_GET['pool'] ?? 'fpm');
$key = $_GET['key'] ?? 'k';
switch ($_GET['op'] ?? '') {
    case 'store':
        echo json_encode($c->store($key, $_GET['value'] ?? ''));
        break;
    case 'fetch':
        echo json_encode($c->fetch($key, 'MISS'));
        break;
    case 'status':
        $s = UserCache\Cache::getStatus();
        echo json_encode(['availability' => $s->getAvailability()->name, 'entries' => $c->getPoolStatus()->getEntryKeys()]);
        break;
    case 'lock':
        // Takes the key's lock; this request's end releases it (unless leased).
        echo json_encode($c->lock($key, (int)($_GET['lease'] ?? 0)));
        break;
    case 'lock_and_hold':
        // Takes the lock, says so in the pid file, then stays in the request
        // until the release file appears (or the test kills this worker).
        $taken = $c->lock($key);
        file_put_contents($_GET['pidfile'], getmypid());
        for ($i = 0; $i < 2000 && !file_exists($_GET['release']); $i++) {
            usleep(10000);
        }
        echo json_encode($taken);
        break;
    case 'clear':
        echo json_encode($c->clear());
        break;
    case 'remember':
        // Counts its computes in a file: a single flight computes once.
        echo json_encode($c->remember($key, function () {
            file_put_contents($_GET['log'], getmypid() . "\n", FILE_APPEND);
            usleep(300000);
            return 'computed';
        }));
        break;
    default:
        http_response_code(400);
        echo 'unknown op';
}
