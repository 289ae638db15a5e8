<?php
// Prints the digests every endpoint must answer, as JSON (used by demo.php).
require __DIR__ . '/data.php';
$config = bench_config_digest(bench_config());
$routes = bench_routes();
$graph = bench_graph();
$g2 = $graph;
$g2['routes']['route_1234']['controller'] = 'Changed';
$g2['dtos'][123] = clone $g2['dtos'][123];
$g2['dtos'][123]->name = 'changed';
require '/usr/share/php/Carbon/autoload.php';
echo json_encode([
    'carbon' => bench_carbon_digest(bench_carbon()),
    'slim_hello' => 'Hello, World!',
    'config' => $config,
    'repeat_fetch' => '100|' . $routes['/page/999']['controller'],
    'shared_graph' => bench_graph_digest($graph),
    'shared_graph_mutate' => bench_graph_digest($g2),
    'request_over_static' => bench_match(bench_compiled_routes(), '/section777/42/items/blue') . '|' . bench_match(bench_compiled_routes(), '/about5'),
    'graph_serialized_bytes' => strlen(serialize($graph)),
]), "\n";
