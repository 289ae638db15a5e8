<?php
// Endpoint for the RequestOverStatic php-fpm tests: ?op=...&dir=<class dir>
// The classes live in the test's private directory (so a test can edit them),
// loaded by an autoloader, as an application would.
header('X-Pid: ' . getmypid());
$dir = $_GET['dir'];
spl_autoload_register(function (string $class) use ($dir) {
    if (is_file("$dir/$class.php")) {
        require "$dir/$class.php";
    }
});
switch ($_GET['op'] ?? '') {
    case 'add':        // append to a persisted list
        Catalog::$items[] = $_GET['item'];
        echo json_encode(Catalog::$items);
        break;
    case 'read':
        echo json_encode(Catalog::$items);
        break;
    case 'status':
        echo json_encode(Resident\Cache::status()['request_over_static']);
        break;
    case 'churn':      // check the persisted array is whole, then rewrite all of it
        $ok = Ledger::check();
        Ledger::rewrite((int)getmypid());
        echo json_encode(['whole' => $ok, 'version' => Ledger::$version]);
        break;
    case 'preloaded':
        Preloaded::$hits++;
        echo json_encode(Preloaded::$hits);
        break;
    case 'sleep':      // keeps this worker busy
        usleep((int)$_GET['ms'] * 1000);
        echo json_encode(getmypid());
        break;
    case 'forget':
        echo json_encode(Resident\Cache::forgetStatics($_GET['class'] ?? null));
        break;
}
