<?php
// Endpoint for the closure php-fpm tests: ?op=...&dir=<app dir>. The app's
// classes are autoloaded from the test's private directory; its closures
// are declared by routes.php there, which only op=build includes.
header('X-Pid: ' . getmypid());
$dir = $_GET['dir'];
spl_autoload_register(function (string $class) use ($dir) {
    if (is_file("$dir/$class.php")) {
        require "$dir/$class.php";
    }
});
$c = Resident\Cache::pool('kept');
switch ($_GET['op'] ?? '') {
    case 'sleep':      // keeps this worker busy
        usleep((int)$_GET['ms'] * 1000);
        echo json_encode(getmypid());
        break;
    case 'build':      // boots the app and keeps it
        echo json_encode($c->store('app', require "$dir/routes.php"));
        break;
    case 'run':        // serves with the kept app
        $app = $c->fetch('app');
        if (!$app instanceof App) {
            echo json_encode(['miss' => $app, 'kept' => $c->exists('app')]);
            break;
        }
        echo json_encode([
            'hello' => ($app->routes['/'])('world'),
            'nested' => ($app->routes['/nested'])(4)(2),
            'bound' => ($app->middleware)(),
            'counter' => ($app->routes['/count'])(),
            'anonymous' => $app->handler->handle('x'),
            'loaded routes.php' => in_array(realpath("$dir/routes.php"), get_included_files(), true),
        ]);
        break;
    case 'invalidate':
        echo json_encode(opcache_invalidate("$dir/routes.php", true));
        break;
    case 'reset':
        echo json_encode(opcache_reset());
        break;
    case 'flood':      // scripts that fill OPcache (rewrite: new versions, the old ones wasted)
        $pad = implode(',', range(1, 1000));   // a literal array: in the script's own memory
        for ($i = 0; $i < (int)$_GET['n']; $i++) {
            $file = "$dir/flood-{$_GET['tag']}-$i.php";
            if (!is_file($file) || isset($_GET['rewrite'])) {
                file_put_contents($file, "<?php return function () { return [$i, " . mt_rand() . ", $pad]; };");
                touch($file, time() + (isset($_GET['rewrite']) ? 20 : 0));
            }
            require $file;
        }
        $stats = opcache_get_status(false)['opcache_statistics'];
        echo json_encode($stats['hash_restarts'] + $stats['oom_restarts']);
        break;
}
