<?php
/*
 * Payloads of the HTTP benchmark app, built deterministically, and the
 * digest each endpoint computes over what it read (so no backend can win by
 * returning nothing or the wrong thing).
 */

final class RouteDto
{
    public function __construct(
        public int $id,
        public string $name,
        public string $path,
        public array $methods,
        public ?string $controller = null,
        public array $defaults = [],
    ) {}
}

function bench_config(): array
{
    $c = [];
    for ($a = 0; $a < 10; $a++) {
        for ($b = 0; $b < 10; $b++) {
            for ($d = 0; $d < 10; $d++) {
                for ($e = 0; $e < 10; $e++) {
                    $c["section$a"]["group$b"]["item$d"]["key$e"] = match ($e % 3) {
                        0 => "value-$a-$b-$d-$e",
                        1 => $a * 1000 + $e,
                        2 => ($d + $e) % 2 === 0,
                    };
                }
            }
        }
    }
    return $c;
}

function bench_config_digest(array $v): string
{
    return $v['section3']['group4']['item5']['key6'] . '|' . count($v) . '|' . $v['section9']['group9']['item9']['key9'];
}

/** Routes and service metadata (arrays) plus 300 DTO objects: ~1 MB serialized. */
function bench_graph(): array
{
    $routes = [];
    for ($i = 0; $i < 2000; $i++) {
        $routes["route_$i"] = [
            'path' => "/api/v1/resource$i/{id}/sub" . ($i % 17),
            'methods' => $i % 3 ? ['GET'] : ['GET', 'POST'],
            'controller' => 'App\\Controller\\Resource' . ($i % 50) . 'Controller::action' . ($i % 7),
            'requirements' => ['id' => '\\d+'],
            'defaults' => ['_format' => 'json', 'page' => $i % 10],
        ];
    }
    $services = [];
    for ($i = 0; $i < 1500; $i++) {
        $services["service.$i"] = [
            'class' => 'App\\Service\\Service' . $i,
            'arguments' => ['@service.' . (($i + 1) % 1500), '%param.' . ($i % 40) . '%'],
            'tags' => $i % 5 ? [] : [['name' => 'kernel.event_listener', 'event' => 'kernel.request']],
            'public' => $i % 2 === 0,
        ];
    }
    $services['mailer'] = ['class' => 'App\\Mailer', 'arguments' => [], 'tags' => [], 'public' => true];
    $dtos = [];
    for ($i = 0; $i < 300; $i++) {
        $dtos[] = new RouteDto($i, "dto_$i", "/dto/$i", ['GET'], "Ctl$i", ['x' => $i]);
    }
    return ['routes' => $routes, 'services' => $services, 'dtos' => $dtos];
}

function bench_graph_digest(array $v): string
{
    return count($v['routes']) . '|' . $v['routes']['route_1234']['controller'] . '|'
        . $v['services']['mailer']['class'] . '|' . $v['dtos'][123]->name . '|' . count($v['dtos']);
}

/** A router's compiled table: 2,000 dynamic routes (a regex each, grouped by prefix) and 2,000 static ones. */
function bench_compiled_routes(): array
{
    $compiled = ['static' => [], 'dynamic' => []];
    for ($i = 0; $i < 2000; $i++) {
        $path = "/section$i/{id}/items/{slug}";
        $regex = '#^' . preg_replace_callback('/\\\{(\w+)\\\}/', fn ($m) => "(?P<{$m[1]}>[^/]+)", preg_quote($path, '#')) . '$#';
        $compiled['dynamic']["/section$i"][] = ['regex' => $regex, 'controller' => "Section{$i}Controller::show",
            'vars' => ['id', 'slug'], 'methods' => ['GET', 'HEAD']];
        $compiled['static']["/about$i"] = ['controller' => "Page{$i}Controller", 'methods' => ['GET']];
    }
    return $compiled;
}

function bench_match(array $table, string $uri): string
{
    $prefix = '/' . explode('/', $uri)[1];
    foreach ($table['dynamic'][$prefix] ?? [] as $route) {
        if (preg_match($route['regex'], $uri, $m)) {
            return $route['controller'] . '(' . $m['id'] . ',' . $m['slug'] . ')';
        }
    }
    return $table['static'][$uri]['controller'] ?? '404';
}

/** The route table as a framework would keep it, in a static property. */
#[Resident\RequestOverStatic]
final class KeptRoutes
{
    public static ?array $table = null;
}

/** 200 Carbon dates in a few time zones (Debian's php-nesbot-carbon). */
function bench_carbon(): array
{
    $zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'];
    $dates = [];
    for ($i = 0; $i < 200; $i++) {
        $dates[] = Carbon\Carbon::createFromTimestamp(1700000000 + $i * 86399, $zones[$i % 4]);
    }
    return $dates;
}

function bench_carbon_digest(array $dates): string
{
    $sum = 0;
    foreach ($dates as $d) {
        $sum += $d->getTimestamp();
    }
    return count($dates) . '|' . $sum . '|' . $dates[137]->format('Y-m-d H:i:s T') . '|' . get_class($dates[0]);
}

function bench_routes(): array
{
    $r = [];
    for ($i = 0; $i < 1000; $i++) {
        $r["/page/$i"] = ['controller' => "Page$i", 'methods' => ['GET']];
    }
    return $r;
}
