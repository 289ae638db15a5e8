<?php
// Endpoint for the php-fpm tests of fatal errors inside fetch(): ?op=...
$c = Resident\Cache::pool('faults');
header('X-Pid: ' . getmypid());

/* Its __wakeup() ends the request with the fatal error $GLOBALS['how'] names. */
final class Bomb
{
    public array $payload = [];

    public function __wakeup(): void
    {
        switch ($GLOBALS['how'] ?? '') {
            case 'user_error':
                trigger_error('boom', E_USER_ERROR);
            case 'timeout':
                set_time_limit(1);
                for (;;) {
                }
            case 'memory':
                ini_set('memory_limit', '16M');
                $GLOBALS['hog'] = str_repeat('x', 64 << 20);
        }
    }
}

final class Node
{
    public array $children = [];
    public string $name = '';
}

// Only the storing request knows Unloadable; a fetching request autoloads
// a file that does not compile.
spl_autoload_register(function (string $class) {
    if ($class === 'Unloadable') {
        require $_GET['dir'] . '/Unloadable.php';
    }
});

switch ($_GET['op'] ?? '') {
    case 'status':
        echo json_encode(Resident\Cache::status());
        break;
    case 'version':
        echo PHP_VERSION_ID;
        break;
    case 'check':
        echo json_encode(['problem' => Resident\Testing::check()]);
        break;
    case 'setup':
        file_put_contents($_GET['dir'] . '/Unloadable.php', "<?php\nfinal class Unloadable { function f() {} function f() {} }\n");
        $bomb = new Bomb();
        $bomb->payload = range(1, 100);
        eval('final class Unloadable { public int $n = 1; }');
        echo json_encode([
            $c->store('bomb', ['first' => $bomb, 'list' => range(1, 50)]),
            $c->store('unloadable', [new Unloadable()]),
            $c->store('big', range(1, 300000)),
        ]);
        break;
    case 'fatal':
        // Dies inside the fetch, in the way asked for.
        $GLOBALS['how'] = $_GET['how'];
        switch ($_GET['how']) {
            case 'compile':
                $c->fetch('unloadable');
                break;
            case 'copy_memory':
                // The copy of a stored array itself runs into memory_limit
                // (copy mode). Debian's PHP 8.2 lets internal code run on
                // past the limit until control is back in PHP code, and
                // ends the process at a hard limit a few MB above it: there
                // a userland allocation inside the fetch has to stand in.
                if (PHP_VERSION_ID < 80400) {
                    $GLOBALS['how'] = 'memory';
                    $c->fetch('bomb');
                    break;
                }
                ini_set('memory_limit', (memory_get_usage(true) + (1 << 20)) . '');
                $GLOBALS['keep'] = [$c->fetch('big'), $c->fetch('big'), $c->fetch('big')];
                break;
            case 'remember':
                $GLOBALS['how'] = 'user_error';
                $c->remember('bomb', fn () => 'computed');
                break;
            default:
                $c->fetch('bomb');
        }
        echo 'survived';
        break;
    case 'tree':
        // A Node of $n children: the first sizes the one-pass writes of
        // the next ones; with oom=1 the next runs out of memory_limit
        // while the encoding's table of the objects it met grows.
        $root = new Node();
        for ($i = 0; $i < (int)$_GET['n']; $i++) {
            $child = new Node();
            $child->name = "child $i";
            $root->children[] = $child;
        }
        if (!empty($_GET['oom'])) {
            // The same tree once more first, so that what this request
            // sets up on its first store of a Node (and the size guess)
            // is there before the limit is lowered.
            $c->store('warm', $root);
            $limit = (string)(memory_get_usage() + 2048);
            ini_set('memory_limit', $limit);
        }
        echo json_encode($c->store($_GET['key'], $root));
        break;
    case 'store':
        echo json_encode($c->store($_GET['key'], $_GET['value']));
        break;
    case 'churn':
        // Replaces one key with $n values of 100 KB: each replaced version
        // waits in limbo until no request that could see it is in flight.
        $ok = 0;
        for ($i = 0; $i < (int)$_GET['n']; $i++) {
            $ok += (int)$c->store('churn', str_repeat(chr(65 + $i % 26), 100000));
        }
        echo json_encode($ok);
        break;
    default:
        http_response_code(400);
}
