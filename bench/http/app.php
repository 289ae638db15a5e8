<?php
/*
 * The HTTP benchmark app: GET /?scenario=S&backend=B. Every response carries
 * X-Worker-Us (microseconds of handled work) and a body "ok <digest>" that
 * the load generator checks against the expected digest.
 */
$start = hrtime(true);
require __DIR__ . '/data.php';

$scenario = $_GET['scenario'] ?? '';
$backend = $_GET['backend'] ?? '';
$cache = class_exists('Resident\Cache') ? Resident\Cache::pool('bench') : null;

/** Reads $key from the backend, building (and caching) it on a miss. */
function cached(string $backend, string $key, callable $build): mixed
{
    global $cache;
    switch ($backend) {
        case 'build':
            return $build();
        case 'apcu':
        case 'apcu_igbinary':
            // run.php serves each from a php-fpm master whose APCu uses
            // the serializer the backend names.
            $serializer = $backend === 'apcu' ? 'php' : 'igbinary';
            if (ini_get('apc.serializer') !== $serializer) {
                http_response_code(500);
                exit("backend $backend reached a worker with apc.serializer=" . ini_get('apc.serializer') . "\n");
            }
            $v = apcu_fetch($key, $ok);
            if (!$ok) {
                apcu_store($key, $v = $build());
            }
            return $v;
        case 'resident':
            $v = $cache->fetch($key);
            if ($v === null) {
                $cache->store($key, $v = $build());
            }
            return $v;
        case 'include':
            $file = sys_get_temp_dir() . "/resident-bench-$key.php";
            if (!is_file($file)) {
                $tmp = "$file." . getmypid();
                file_put_contents($tmp, '<?php return ' . var_export($build(), true) . ';');
                rename($tmp, $file);
            }
            return include $file;
        case 'serialize':
            $file = sys_get_temp_dir() . "/resident-bench-$key.ser";
            if (!is_file($file)) {
                file_put_contents("$file." . getmypid(), serialize($build()));
                rename("$file." . getmypid(), $file);
            }
            return unserialize(file_get_contents($file));
    }
    http_response_code(400);
    exit("unknown backend $backend\n");
}

switch ($scenario) {
    case 'config':
        $digest = bench_config_digest(cached($backend, 'config', 'bench_config'));
        break;
    case 'repeat_fetch':
        $n = 0;
        for ($i = 0; $i < 100; $i++) {
            $routes = cached($backend, 'routes', 'bench_routes');
            $n += isset($routes["/page/$i"]) ? 1 : 0;
        }
        $digest = $n . '|' . $routes['/page/999']['controller'];
        break;
    case 'shared_graph':
        $digest = bench_graph_digest(cached($backend, 'graph', 'bench_graph'));
        break;
    case 'shared_graph_mutate':
        $g = cached($backend, 'graph', 'bench_graph');
        $g['routes']['route_1234']['controller'] = 'Changed';
        $g['dtos'][123]->name = 'changed';
        $g['services']['new'] = ['class' => 'X'];
        $digest = bench_graph_digest($g);
        break;
    case 'request_over_static':
        $table = match ($backend) {
            'persisted' => KeptRoutes::$table ??= bench_compiled_routes(),
            'local' => bench_compiled_routes(),
            default => cached($backend, 'compiled_routes', 'bench_compiled_routes'),
        };
        $digest = bench_match($table, '/section777/42/items/blue') . '|' . bench_match($table, '/about5');
        break;
    case 'slim_hello':
        require __DIR__ . '/slim.php';
        $digest = bench_slim_hello($backend);
        break;
    case 'carbon':
        require_once '/usr/share/php/Carbon/autoload.php';
        $digest = bench_carbon_digest(cached($backend, 'carbon', 'bench_carbon'));
        break;
    default:
        http_response_code(400);
        exit("unknown scenario $scenario\n");
}
header('X-Worker-Us: ' . intdiv(hrtime(true) - $start, 1000));
echo "ok $digest\n";
