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
    case 'members':    // a property and a method of their own, not the class
        Members::$kept[] = $_GET['item'];
        Members::$notKept[] = $_GET['item'];
        echo json_encode([Members::$kept, Members::$notKept, Members::tally()]);
        break;
    case 'registry_build': // 200 objects in a ring
        if (!Registry::$items) {
            for ($i = 0; $i < 200; $i++) {
                $item = new Item("item$i");
                $item->tags[] = "t$i";
                Registry::$items[] = $item;
            }
            foreach (Registry::$items as $i => $item) {
                $item->next = Registry::$items[($i + 1) % 200];
            }
        }
        echo json_encode(count(Registry::$items));
        break;
    case 'registry_read':
        $item = Registry::$items[(int)$_GET['i']];
        $s = Resident\Cache::status()['request_over_static'];
        $read = ['name' => $item->name, 'next' => $item->next->name, 'tags' => $item->tags];
        $s2 = Resident\Cache::status()['request_over_static'];
        echo json_encode($read + ['shells' => $s2['shells_this_request'], 'filled' => $s2['shells_filled_this_request'],
            'publishes' => $s['publishes']]);
        break;
    case 'registry_rename':
        Registry::$items[(int)$_GET['i']]->name = $_GET['name'];
        echo json_encode(Registry::$items[(int)$_GET['i']]->name);
        break;
    case 'hold':       // writes, says so (a file), then waits until told to end
        Live::$now[] = $_GET['item'];
        Live::$atEnd[] = $_GET['item'];
        Catalog::$items[] = $_GET['item'];
        file_put_contents("$dir/held.tmp", getmypid());
        rename("$dir/held.tmp", "$dir/held");
        // Bounded, so that a test that never releases it fails rather than hangs.
        for ($i = 0; $i < 2000 && !is_file("$dir/release"); $i++) {
            usleep(5000);
        }
        echo json_encode(is_file("$dir/release"));
        break;
    case 'live':
        echo json_encode([Live::$now, Live::$atEnd, Catalog::$items]);
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
    case 'preloaded_values': // objects of preloaded classes, stored once, fetched eagerly and kept (lazily)
        $c = Resident\Cache::pool('preloaded');
        $make = fn () => [new PreloadedPoint(3, 'c', new PreloadedPoint(2, 'b', new PreloadedPoint())), new PreloadedLimit(),
            new ArrayObject(['x' => 1])];
        if (!$c->exists('v')) {
            $c->store('v', $make());
        }
        $show = fn (array $v) => [$v[0]->x, $v[0]->label, $v[0]->next->x, $v[0]->next->next->label, $v[0]->next->next->next,
            $v[1]->max, $v[1]->tags, $v[2]['x']];
        echo json_encode([$show($c->fetch('v')), $show($c->keep('kept', $make))]);
        break;
    case 'sleep':      // keeps this worker busy
        usleep((int)$_GET['ms'] * 1000);
        echo json_encode(getmypid());
        break;
    case 'opcache_reset':
        echo json_encode(opcache_reset());
        break;
    case 'opcache_invalidate':
        echo json_encode(opcache_invalidate("$dir/{$_GET['class']}.php", true));
        break;
    case 'explicit_store': // an entry of the application's own
        echo json_encode(Resident\Cache::pool('app')->store('config', $_GET['value']));
        break;
    case 'explicit_fetch':
        echo json_encode(Resident\Cache::pool('app')->fetch('config'));
        break;
    case 'forget':
        echo json_encode(Resident\Cache::forgetStatics($_GET['class'] ?? null));
        break;
}
