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
}
