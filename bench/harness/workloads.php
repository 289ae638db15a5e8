<?php
/*
 * The 27 workloads of the ext-user_cache proposal's benchmark harness
 * (github.com/colopl/php-user_cache_benchmark_harness,
 * scripts/UserCacheBenchmark.php), written again for Resident's bench: the
 * same names, the same value shapes and sizes, and after each fetch the same
 * kind of reads of the fetched value (a few fields, a format() per date the
 * harness formats), so that a ratio here means what it means there. The
 * harness is not on Packagist and `make bench` cannot reach GitHub; see
 * bench/README.md for what differs.
 *
 * hx_workloads() returns name => [
 *   'build'  => fn(): mixed        the value (built once per worker),
 *   'check'  => fn(mixed): string  a fingerprint compared before and after a
 *                                  round trip (outside the timed loops),
 *   'read'   => fn(mixed, int): int what a reader does with a fetched value,
 *   'mutate' => ?fn(mixed, int)    a change made to the fetched copy,
 *   'gc_off' => bool               cyclic values: the cycle collector is off
 *                                  while timing, as in the harness ]
 */

declare(strict_types=1);

require_once __DIR__ . '/classes.php';

const HX_ROWS = 192;
const HX_TIMELINE = 64;
const HX_SPL_ITEMS = 64;
const HX_CONFIGS = 32;
const HX_PRODUCTS = 80;

/* An immutable literal: under OPcache the engine hands out one shared array. */
const HX_CONSTANT_ARRAY = [
    'routes' => [
        '/catalog/books/0' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, false, true], 'score' => 100],
        '/catalog/books/1' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [false, true, true], 'score' => 101],
        '/catalog/books/2' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, true, false], 'score' => 102],
        '/catalog/books/3' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [false, false, true], 'score' => 103],
        '/catalog/books/4' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, false, false], 'score' => 104],
        '/catalog/books/5' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [false, true, false], 'score' => 105],
        '/catalog/books/6' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [true, true, true], 'score' => 106],
        '/catalog/books/7' => ['controller' => 'CatalogController::show', 'methods' => ['GET'], 'flags' => [false, false, false], 'score' => 107],
    ],
    'headers' => ['cache-control' => 'public, max-age=60', 'x-benchmark' => 'user-cache'],
    'weights' => [3, 5, 8, 13, 21, 34, 55, 89],
];

/* ---- value builders --------------------------------------------------------- */

/** 192 rows of 7 fields, three of them nested arrays. */
function hx_rows(string $tag): array
{
    $rows = [];
    for ($i = 0; $i < HX_ROWS; $i++) {
        $rows[] = [
            'id' => $i,
            'path' => "/catalog/large/$i",
            'controller' => 'LargeCatalogController::show',
            'title' => "$tag-route-$i-" . str_repeat((string)($i % 10), 64),
            'flags' => [$i % 2 === 0, $i % 3 === 0, $i % 5 === 0],
            'weights' => [$i, $i + 1, $i + 2, $i + 3, $i + 5],
            'metadata' => [
                'tenant' => 'tenant-' . ($i % 8),
                'locale' => $i % 2 === 0 ? 'ja_JP' : 'en_US',
                'tags' => ['cache', 'benchmark', 'row-' . ($i % 16)],
            ],
        ];
    }
    return $rows;
}

/** 384 compiled routes keyed by name. */
function hx_routes(): array
{
    $routes = [];
    for ($i = 0; $i < 2 * HX_ROWS; $i++) {
        $routes["route_$i"] = [
            'path' => "/tenant/{tenant}/catalog/$i/{slug}",
            'controller' => 'App\\Controller\\CatalogController::show' . ($i % 8),
            'methods' => $i % 3 === 0 ? ['GET', 'HEAD'] : ['GET'],
            'variables' => ['tenant', 'slug'],
            'defaults' => ['_locale' => $i % 2 === 0 ? 'ja' : 'en', '_format' => 'html'],
            'requirements' => ['tenant' => '[a-z0-9_-]+', 'slug' => '[a-z0-9-]+'],
            'score' => 1000 + $i,
        ];
    }
    return $routes;
}

function hx_url_generators(): array
{
    $out = [];
    for ($i = 0; $i < 64; $i++) {
        $out["route_$i"] = [
            'prefix' => '/tenant/' . ($i % 12),
            'tokens' => ['text', 'variable', 'separator', 'variable'],
            'host' => 'example' . ($i % 4) . '.test',
        ];
    }
    return $out;
}

/** 96 container service definitions. */
function hx_services(): array
{
    $out = [];
    for ($i = 0; $i < 96; $i++) {
        $out["service.$i"] = [
            'class' => "App\\Service\\GeneratedService$i",
            'factory' => $i % 5 === 0 ? ['container', 'make'] : null,
            'tags' => ['user_cache.warmable', 'tenant.' . ($i % 8)],
            'arguments' => ['@logger', '%kernel.project_dir%', $i],
        ];
    }
    return $out;
}

function hx_metadata(string $name): HxAppMetadata
{
    return new HxAppMetadata($name, hx_routes(), hx_services(), new HxChild('metadata-owner', 7));
}

function hx_config_entries(): array
{
    $out = [];
    for ($i = 0; $i < HX_CONFIGS; $i++) {
        $out["config_$i"] = [
            'name' => "config_$i",
            'tenant' => 'tenant-' . ($i % 8),
            'features' => ['search' => $i % 2 === 0, 'recommendations' => $i % 3 === 0, 'checkout' => true],
            'limits' => ['items' => 100 + $i, 'burst' => 10 + ($i % 5)],
            'checksum_seed' => str_repeat((string)($i % 10), 48),
        ];
    }
    return $out;
}

function hx_nested_nodes(): array
{
    $nodes = [];
    for ($i = 0; $i < 24; $i++) {
        $children = [];
        for ($c = 0; $c < 4; $c++) {
            $children[] = ['label' => "node-$i-child-$c", 'enabled' => $c % 2 === 0];
        }
        $nodes[] = ['label' => "node-$i", 'revision' => 1, 'children' => $children];
    }
    return $nodes;
}

function hx_sleeping_report(): HxSleepingReport
{
    $routes = [];
    for ($i = 0; $i < 48; $i++) {
        $routes["route_$i"] = [
            'path' => "/api/v1/resource/$i",
            'controller' => 'App\\Controller\\Resource' . ($i % 7) . 'Controller::show',
            'methods' => ['GET', 'POST'],
            'score' => 3 * $i,
        ];
    }
    $settings = [
        'cache' => ['ttl' => 300, 'jitter' => 15, 'tags' => ['a', 'b', 'c']],
        'limits' => ['rate' => 1000, 'burst' => 50],
        'flags' => array_fill_keys(range('a', 'p'), true),
    ];
    return new HxSleepingReport('sleep-wakeup', $routes, $settings);
}

function hx_hooked_entity(): HxHookedEntity
{
    $attributes = [];
    for ($i = 0; $i < 40; $i++) {
        $attributes["attr_$i"] = ['value' => "value-$i-" . str_repeat('e', 24), 'rank' => 7 * $i];
    }
    $related = new HxHookedEntity(9001, 'related-entity', ['kind' => ['value' => 'child', 'rank' => 1]]);
    return new HxHookedEntity(4242, 'primary-entity', $attributes, $related);
}

function hx_restore_only_entity(): HxRestoreOnlyEntity
{
    $attributes = [];
    for ($i = 0; $i < 40; $i++) {
        $attributes["attr_$i"] = ['value' => "value-$i-" . str_repeat('u', 24), 'rank' => 11 * $i];
    }
    $related = new HxRestoreOnlyEntity(7001, 'related-unserialize-only', ['kind' => ['value' => 'child', 'rank' => 1]]);
    return new HxRestoreOnlyEntity(31337, 'primary-unserialize-only', $attributes, $related);
}

function hx_user_rows(): array
{
    $users = [];
    for ($i = 0; $i < 100; $i++) {
        $users[] = new HxSleepingUser($i, "user$i@example.test", $i % 3 === 0 ? ['admin', 'editor'] : ['viewer'], [
            'display_name' => "User $i",
            'preferences' => ['locale' => $i % 2 === 0 ? 'ja_JP' : 'en_US', 'theme' => 'dark'],
            'counters' => [$i, 2 * $i, 3 * $i],
        ]);
    }
    return $users;
}

/** A root, 12 categories, 6 items each; every node points at its parent. */
function hx_category_tree(): HxTreeNode
{
    $root = new HxTreeNode('root', ['depth' => 0]);
    for ($c = 0; $c < 12; $c++) {
        $category = new HxTreeNode("category-$c", ['depth' => 1, 'index' => $c]);
        $category->parent = $root;
        for ($j = 0; $j < 6; $j++) {
            $item = new HxTreeNode("item-$c-$j", ['depth' => 2, 'sku' => sprintf('SKU-%03d-%02d', $c, $j), 'tags' => ['tree', 'node', 'leaf-' . ($j % 3)]]);
            $item->parent = $category;
            $category->children[] = $item;
        }
        $root->children[] = $category;
    }
    return $root;
}

function hx_listing_page(): HxListingPage
{
    $products = [];
    for ($i = 0; $i < HX_PRODUCTS; $i++) {
        $products[] = new HxProduct(
            100000 + $i,
            sprintf('SKU-%05d', $i),
            "Benchmark Product $i " . str_repeat(chr(65 + $i % 26), 12),
            1200 + 37 * $i,
            ['new' => $i % 7 === 0, 'discount' => $i % 5 === 0 ? 10 + ($i % 4) * 5 : 0, 'tags' => ['tenant-' . ($i % 8), 'category-' . ($i % 12)]],
            new HxChild('seller-' . ($i % 9), 500 + $i % 9),
        );
    }
    $facets = [];
    for ($f = 0; $f < 12; $f++) {
        for ($b = 0; $b < 8; $b++) {
            $facets["facet_$f"][] = ['value' => "facet-$f-bucket-$b", 'count' => 1000 - 17 * $f - 11 * $b, 'selected' => $b === $f % 8];
        }
    }
    return new HxListingPage(
        'tenant-3:catalog:query:summer-sale',
        new DateTimeImmutable('2026-06-30 09:15:00', new DateTimeZone('UTC')),
        $products,
        $facets,
        ['tenant' => 'tenant-3', 'locale' => 'ja_JP', 'currency' => 'JPY', 'page' => 3, 'per_page' => HX_PRODUCTS,
            'sort' => ['field' => 'popularity', 'direction' => 'desc']],
    );
}

function hx_spl_arrays(): HxCollection
{
    $fixed = new SplFixedArray(HX_SPL_ITEMS);
    $rows = [];
    for ($i = 0; $i < HX_SPL_ITEMS; $i++) {
        $fixed[$i] = $rows["row_$i"] = ['id' => $i, 'label' => "spl-row-$i", 'score' => 1000 + 7 * $i];
    }
    return new HxCollection([
        'fixed' => $fixed,
        'map' => new ArrayObject($rows, ArrayObject::ARRAY_AS_PROPS),
        'iterator' => new ArrayIterator($rows),
        'recursive' => new RecursiveArrayIterator(['branch' => ['leaf_17' => ['score' => 17017], 'leaf_31' => ['score' => 31031]]]),
    ], 'spl-collection', 11);
}

function hx_spl_lists(): HxCollection
{
    $list = new SplDoublyLinkedList();
    $queue = new SplQueue();
    $stack = new SplStack();
    for ($i = 0; $i < HX_SPL_ITEMS; $i++) {
        $row = ['id' => $i, 'label' => "spl-linked-row-$i", 'score' => 2000 + 11 * $i];
        $list->push($row);
        $queue->enqueue($row);
        $stack->push($row);
    }
    return new HxCollection(['list' => $list, 'queue' => $queue, 'stack' => $stack], 'spl-linked-collection', 13);
}

function hx_spl_heaps(): HxCollection
{
    $min = new SplMinHeap();
    $max = new SplMaxHeap();
    $pq = new SplPriorityQueue();
    $pq->setExtractFlags(SplPriorityQueue::EXTR_BOTH);
    for ($i = 0; $i < HX_SPL_ITEMS; $i++) {
        $row = ['id' => $i, 'label' => "spl-heap-row-$i", 'score' => 3000 + 13 * $i];
        $min->insert(['priority' => $i, 'row' => $row]);
        $max->insert(['priority' => $i, 'row' => $row]);
        $pq->insert($row, $i);
    }
    return new HxCollection(['min' => $min, 'max' => $max, 'priority_queue' => $pq], 'spl-heap', 17);
}

/** 64 entries of two Carbon dates (immutable and mutable) and a zone. */
function hx_carbon_timeline(): array
{
    $out = [];
    for ($i = 0; $i < HX_TIMELINE; $i++) {
        $zone = new Carbon\CarbonTimeZone($i % 2 === 0 ? 'Asia/Tokyo' : 'Europe/Paris');
        $start = new Carbon\CarbonImmutable('2026-05-01 10:30:45.123456', $zone);
        $out[] = [
            'created' => $start->addDays($i),
            'updated' => Carbon\Carbon::instance($start->addDays($i + 1)->toMutable()),
            'timezone' => $zone,
            'label' => "carbon-timeline-$i",
        ];
    }
    return $out;
}

function hx_native_timeline(): array
{
    $out = [];
    for ($i = 0; $i < HX_TIMELINE; $i++) {
        $zone = new DateTimeZone($i % 2 === 0 ? 'Asia/Tokyo' : 'Europe/Paris');
        $start = new DateTimeImmutable('2026-05-01 10:30:45.123456', $zone);
        $out[] = [
            'created' => $start->modify("+$i days"),
            'updated' => DateTime::createFromImmutable($start->modify('+' . ($i + 1) . ' days')),
            'timezone' => $zone,
            'label' => "raw-timeline-$i",
        ];
    }
    return $out;
}

function hx_model_attributes(int $i): array
{
    return ['status' => ['draft', 'published', 'archived'][$i % 3], 'score' => 17 * $i,
        'flags' => ['featured' => $i % 5 === 0, 'locked' => $i % 7 === 0]];
}

/** 48 models with three Carbon dates each. */
function hx_carbon_models(): array
{
    $models = [];
    $day = Carbon\CarbonImmutable::parse('2026-06-29 00:00:00', 'UTC');
    for ($i = 0; $i < 48; $i++) {
        $models[] = new HxModelWithCarbon(1000 + $i, "model_$i",
            $day->subDays($i)->setTimezone('UTC'),
            Carbon\Carbon::parse('2026-06-29 12:00:00', 'UTC')->addMinutes(7 * $i),
            $day->addDays($i % 21)->setTimezone('America/Los_Angeles'),
            hx_model_attributes($i));
    }
    return ['models' => $models, 'count' => count($models)];
}

function hx_native_models(): array
{
    $models = [];
    $utc = new DateTimeZone('UTC');
    $day = new DateTimeImmutable('2026-06-29 00:00:00', $utc);
    for ($i = 0; $i < 48; $i++) {
        $models[] = new HxModelWithDateTime(1000 + $i, "model_$i",
            $day->modify("-$i days")->setTimezone($utc),
            (new DateTime('2026-06-29 12:00:00', $utc))->modify('+' . (7 * $i) . ' minutes'),
            $day->modify('+' . ($i % 21) . ' days')->setTimezone(new DateTimeZone('America/Los_Angeles')),
            hx_model_attributes($i));
    }
    return ['models' => $models, 'count' => count($models)];
}

function hx_peers(string $a, string $b): HxPeer
{
    $x = new HxPeer($a, 1);
    $y = new HxPeer($b, 1);
    $x->peer = $y;
    $y->peer = $x;
    return $x;
}

/* ---- fingerprints and reads -------------------------------------------------- */

function hx_fail(string $what): never
{
    throw new RuntimeException("unexpected value: $what");
}

function hx_date(DateTimeInterface $d): string
{
    return $d->format('Y-m-d H:i:s.u e');
}

function hx_dates_check(mixed $v, string $class): string
{
    $v instanceof $class || hx_fail($class);
    $n = count($v->timeline);
    $mid = $v->timeline[intdiv($n, 2)];
    $last = $v->timeline[$n - 1];
    return implode('|', [hx_date($v->createdAt), hx_date($v->updatedAt), $v->zone->getName(), $n,
        hx_date($mid['created']), hx_date($last['updated']), $last['timezone']->getName()]);
}

function hx_dates_read(mixed $v, int $i, string $class): int
{
    $v instanceof $class || hx_fail($class);
    $entry = $v->timeline[$i % count($v->timeline)];
    return (int)$v->createdAt->format('U') + (int)$v->updatedAt->format('s')
        + (int)$entry['created']->format('d') + strlen($v->zone->getName());
}

function hx_models_check(mixed $v, string $class): string
{
    $m = $v['models'][17] ?? null;
    $m instanceof $class || hx_fail($class);
    return implode('|', [$v['count'], $m->id, $m->name, hx_date($m->createdAt), hx_date($m->updatedAt),
        hx_date($m->publishedAt), $m->attributes['status'], $m->attributes['score']]);
}

function hx_models_read(mixed $v, int $i, string $class): int
{
    $m = $v['models'][$i % count($v['models'])] ?? null;
    $m instanceof $class || hx_fail($class);
    return $m->id + (int)$m->createdAt->format('d') + (int)$m->updatedAt->format('H') + $m->attributes['score'];
}

function hx_entity_check(mixed $v, string $class): string
{
    $v instanceof $class || hx_fail($class);
    return $v->weight() . '|' . ($v->related()?->weight() ?? -1);
}

function hx_rows_check(array $rows, int $at): string
{
    $r = $rows[$at] ?? hx_fail('row');
    return $r['path'] . '|' . $r['title'] . '|' . $r['weights'][3] . '|' . $r['metadata']['tenant'];
}

function hx_metadata_check(mixed $v): string
{
    $v instanceof HxAppMetadata || hx_fail('metadata');
    return $v->name . '|' . $v->owner->label . '|' . $v->owner->revision . '|'
        . $v->routes['route_257']['score'] . '|' . $v->services['service.41']['class'];
}

function hx_metadata_read(mixed $v, int $i): int
{
    $v instanceof HxAppMetadata || hx_fail('metadata');
    return $v->owner->revision + $v->routes['route_' . (17 * $i) % (2 * HX_ROWS)]['score']
        + strlen($v->services['service.' . (11 * $i) % 96]['class']);
}

function hx_peer_check(mixed $v, bool $identity): string
{
    ($v instanceof HxPeer && $v->peer instanceof HxPeer && $v->peer->peer instanceof HxPeer) || hx_fail('peer');
    if ($identity && $v->peer->peer !== $v) {
        hx_fail('peer identity');
    }
    return "$v->name|$v->revision|{$v->peer->name}|{$v->peer->revision}|{$v->peer->peer->name}";
}

function hx_peer_read(mixed $v, int $i): int
{
    return $v->revision + $v->peer->revision + strlen($v->peer->name) + $i;
}

function hx_tree_check(mixed $v): string
{
    $v instanceof HxTreeNode || hx_fail('tree');
    $parts = [$v->name, count($v->children)];
    foreach ($v->children as $c) {
        $parts[] = $c->name . ($c->parent === $v ? '+' : '-');
        foreach ($c->children as $item) {
            $parts[] = $item->attributes['sku'] . ($item->parent === $c ? '+' : '-');
        }
    }
    return implode('|', $parts);
}

function hx_tree_read(mixed $v, int $i): int
{
    $c = $v->children[$i % 12];
    $item = $c->children[$i % 6];
    if ($item->parent !== $c || $c->parent !== $v) {
        hx_fail('tree parents');
    }
    return strlen($item->attributes['sku']) + $c->attributes['index'];
}

function hx_spl_arrays_check(mixed $v): string
{
    $v instanceof HxCollection || hx_fail('collection');
    [$f, $m, $it, $rec] = [$v['fixed'], $v['map'], $v['iterator'], $v['recursive']];
    ($f instanceof SplFixedArray && $m instanceof ArrayObject && $it instanceof ArrayIterator
        && $rec instanceof RecursiveArrayIterator) || hx_fail('spl arrays');
    return implode('|', [$v->name, $v->revision, $f->getSize(), $f[17]['label'], $m['row_31']['score'],
        $it['row_43']['label'], $rec['branch']['leaf_31']['score']]);
}

function hx_spl_arrays_read(mixed $v, int $i): int
{
    $f = $v['fixed'];
    $m = $v['map'];
    return $f->getSize() + $f[(13 * $i) % HX_SPL_ITEMS]['score'] + $m['row_' . (17 * $i) % HX_SPL_ITEMS]['score'];
}

function hx_spl_lists_check(mixed $v): string
{
    $v instanceof HxCollection || hx_fail('collection');
    [$l, $q, $s] = [$v['list'], $v['queue'], $v['stack']];
    ($l instanceof SplDoublyLinkedList && $q instanceof SplQueue && $s instanceof SplStack) || hx_fail('spl lists');
    return implode('|', [$v->name, $v->revision, count($l), count($q), count($s), $l[17]['label'], $q[31]['score'], $s[43]['label']]);
}

function hx_spl_lists_read(mixed $v, int $i): int
{
    $l = $v['list'];
    $q = $v['queue'];
    return $l->count() + $q->count() + $l[(13 * $i) % HX_SPL_ITEMS]['score'] + $q[(17 * $i) % HX_SPL_ITEMS]['score'];
}

function hx_spl_heaps_check(mixed $v): string
{
    $v instanceof HxCollection || hx_fail('collection');
    [$min, $max, $pq] = [$v['min'], $v['max'], $v['priority_queue']];
    ($min instanceof SplMinHeap && $max instanceof SplMaxHeap && $pq instanceof SplPriorityQueue) || hx_fail('spl heaps');
    $top = $pq->top();
    return implode('|', [$v->name, $v->revision, count($min), count($max), count($pq), $min->top()['row']['label'],
        $max->top()['row']['score'], $top['data']['label'], $top['priority']]);
}

function hx_spl_heaps_read(mixed $v, int $i): int
{
    [$min, $max, $pq] = [$v['min'], $v['max'], $v['priority_queue']];
    return $min->count() + $max->count() + $pq->count() + $min->top()['row']['score']
        + $max->top()['row']['score'] + $pq->top()['priority'];
}

/* ---- the 27 workloads, in the harness's order --------------------------------- */

function hx_workload(callable $build, callable $check, callable $read, ?callable $mutate = null, bool $gcOff = false): array
{
    return ['build' => $build, 'check' => $check, 'read' => $read, 'mutate' => $mutate, 'gc_off' => $gcOff];
}

function hx_workloads(): array
{
    return [
        'constant_array' => hx_workload(
            fn () => HX_CONSTANT_ARRAY,
            fn ($v) => $v['routes']['/catalog/books/6']['controller'] . '|' . $v['routes']['/catalog/books/6']['score'] . '|' . $v['weights'][7],
            fn ($v, $i) => $v['routes']['/catalog/books/' . $i % 8]['score'] + $v['weights'][$i % 8],
        ),
        'route_table_read' => hx_workload(
            fn () => ['name' => 'compiled-route-table', 'routes' => hx_routes(), 'generators' => hx_url_generators()],
            fn ($v) => $v['name'] . '|' . $v['routes']['route_257']['controller'] . '|' . $v['routes']['route_257']['score'] . '|' . $v['generators']['route_17']['host'],
            function ($v, $i) {
                $r = $v['routes']['route_' . (17 * $i) % (2 * HX_ROWS)];
                return $r['score'] + strlen($r['controller']) + count($r['methods']);
            },
        ),
        'large_array' => hx_workload(
            fn () => ['name' => 'large-array', 'rows' => hx_rows('array'), 'flags' => [true, false, true, true]],
            fn ($v) => $v['name'] . '|' . hx_rows_check($v['rows'], 96),
            function ($v, $i) {
                $r = $v['rows'][(13 * $i) % HX_ROWS];
                return $r['id'] + $r['weights'][3] + strlen($r['metadata']['tenant']);
            },
        ),
        'large_string' => hx_workload(
            fn () => str_repeat('UserCache-large-string-payload-0123456789abcdef:', 4096),
            fn ($v) => strlen($v) . '|' . substr($v, 0, 24) . '|' . substr($v, -16),
            fn ($v, $i) => ord($v[(97 * $i) % strlen($v)]),
        ),
        'large_object_graph' => hx_workload(
            fn () => new HxRowsHolder('large-object-graph', hx_rows('object'), new HxChild('large-object-child', 3)),
            fn ($v) => ($v instanceof HxRowsHolder || hx_fail('rows holder')) . $v->name . '|' . $v->child->label . '|' . hx_rows_check($v->rows, 96),
            fn ($v, $i) => $v->child->revision + $v->rows[(19 * $i) % HX_ROWS]['weights'][2] + strlen($v->rows[(19 * $i) % HX_ROWS]['title']),
        ),
        'metadata_object_read' => hx_workload(
            fn () => hx_metadata('application-metadata'),
            'hx_metadata_check',
            'hx_metadata_read',
        ),
        'metadata_object_fetch_mutate' => hx_workload(
            fn () => hx_metadata('application-metadata-fetch-mutate'),
            'hx_metadata_check',
            'hx_metadata_read',
            function ($v, $i) {
                $v->owner->label = 'metadata-owner-mutated-' . $i % 17;
                $v->owner->revision = 100000 + $i;
            },
        ),
        'sleep_wakeup_object' => hx_workload(
            'hx_sleeping_report',
            fn ($v) => ($v instanceof HxSleepingReport || hx_fail('report')) . $v->name . '|' . count($v->routes) . '|' . json_encode($v->settings),
            fn ($v, $i) => $v->routes['route_' . $i % 48]['score'] + strlen($v->routes['route_' . $i % 48]['controller']) + $v->settings['limits']['rate'],
        ),
        'serialize_magic_entity' => hx_workload(
            'hx_hooked_entity',
            fn ($v) => hx_entity_check($v, HxHookedEntity::class),
            fn ($v, $i) => $v->weight() + $i % 13,
        ),
        'unserialize_only_entity' => hx_workload(
            'hx_restore_only_entity',
            fn ($v) => hx_entity_check($v, HxRestoreOnlyEntity::class),
            fn ($v, $i) => $v->weight() + $i % 13,
        ),
        'sleep_wakeup_entity_collection' => hx_workload(
            'hx_user_rows',
            function ($v) {
                count($v) === 100 || hx_fail('100 users');
                $sum = 0;
                foreach ($v as $u) {
                    $sum += $u->id + count($u->roles) + strlen($u->email);
                }
                return (string)$sum;
            },
            fn ($v, $i) => $v[$i % 100]->id + count($v[$i % 100]->profile['counters']) + strlen($v[$i % 100]->profile['display_name']),
        ),
        'sleep_wakeup_large_dataset' => hx_workload(
            fn () => new HxSleepingReport('large-dataset', hx_rows('serialized'), ['limits' => ['rate' => 500], 'source' => 'report']),
            fn ($v) => ($v instanceof HxSleepingReport || hx_fail('report')) . $v->name . '|' . count($v->routes) . '|' . $v->routes[0]['title'],
            fn ($v, $i) => $v->routes[$i % HX_ROWS]['id'] + strlen($v->routes[$i % HX_ROWS]['title']) + count($v->routes[$i % HX_ROWS]['weights']),
        ),
        'recursive_reference_graph' => hx_workload('hx_category_tree', 'hx_tree_check', 'hx_tree_read', null, true),
        'mixed_serialization_payload' => hx_workload(
            fn () => [
                'config' => ['ttl' => 600, 'tags' => ['mixed', 'payload'], 'limits' => ['rate' => 250, 'burst' => 25]],
                'entity' => hx_hooked_entity(),
                'report' => new HxSleepingReport('mixed-report', ['route_0' => ['score' => 3]], ['flags' => []]),
                'rows' => array_slice(hx_rows('mixed'), 0, 24),
            ],
            fn ($v) => hx_entity_check($v['entity'], HxHookedEntity::class) . '|' . $v['report']->name . '|' . count($v['rows']),
            fn ($v, $i) => $v['entity']->weight() + $v['rows'][$i % 24]['id'] + $v['config']['limits']['rate'],
        ),
        'product_listing_view_model' => hx_workload(
            'hx_listing_page',
            function ($v) {
                $v instanceof HxListingPage || hx_fail('listing');
                $p = $v->products[37];
                return $v->cacheKey . '|' . $v->generatedAt->format(DATE_ATOM) . '|' . $p->sku . '|' . $p->seller->label
                    . '|' . $v->facets['facet_5'][3]['value'] . '|' . $v->context['sort']['field'];
            },
            function ($v, $i) {
                $p = $v->products[(17 * $i) % HX_PRODUCTS];
                return $p->id + $p->priceCents + $p->seller->revision + $v->facets['facet_' . $i % 12][(3 * $i) % 8]['count']
                    + strlen($v->context['locale']);
            },
        ),
        'multi_key_config_read' => hx_workload(
            fn () => ['entries' => hx_config_entries()],
            fn ($v) => implode('|', [$v['entries']['config_17']['name'], $v['entries']['config_17']['tenant'], $v['entries']['config_17']['limits']['items']]),
            function ($v, $i) {
                $e = $v['entries']['config_' . $i % HX_CONFIGS];
                return $e['limits']['items'] + strlen($e['tenant']) + (int)$e['features']['recommendations'];
            },
        ),
        'safe_direct_object' => hx_workload(
            fn () => new HxDates(
                new DateTimeImmutable('2026-05-01 10:30:45.123456', new DateTimeZone('Asia/Tokyo')),
                new DateTimeZone('Europe/Paris'),
                new DateTimeImmutable('2027-07-04 14:35:51.654321', new DateTimeZone('Europe/Paris')),
                new DateInterval('P3DT5H8M13S'),
            ),
            fn ($v) => ($v instanceof HxDates || hx_fail('dates')) . hx_date($v->createdAt) . '|' . $v->zone->getName() . '|'
                . hx_date($v->expiresAt) . '|' . $v->grace->format('%d %H:%I:%S'),
            fn ($v, $i) => (int)$v->createdAt->format('U') + strlen($v->zone->getName()) + (int)$v->expiresAt->format('s') + (int)$v->grace->format('%h'),
        ),
        'spl_collection_object' => hx_workload('hx_spl_arrays', 'hx_spl_arrays_check', 'hx_spl_arrays_read'),
        'spl_linked_collection_object' => hx_workload('hx_spl_lists', 'hx_spl_lists_check', 'hx_spl_lists_read'),
        'spl_heap_object' => hx_workload('hx_spl_heaps', 'hx_spl_heaps_check', 'hx_spl_heaps_read'),
        'carbon_datetime_object' => hx_workload(
            fn () => new HxCarbonDates(
                new Carbon\CarbonImmutable('2026-05-01 10:30:45.123456', new Carbon\CarbonTimeZone('Asia/Tokyo')),
                new Carbon\Carbon('2027-07-04 14:35:51.654321', new Carbon\CarbonTimeZone('Europe/Paris')),
                new Carbon\CarbonTimeZone('Europe/Paris'),
                hx_carbon_timeline(),
            ),
            fn ($v) => hx_dates_check($v, HxCarbonDates::class),
            fn ($v, $i) => hx_dates_read($v, $i, HxCarbonDates::class),
        ),
        'carbon_model_object' => hx_workload(
            'hx_carbon_models',
            fn ($v) => hx_models_check($v, HxModelWithCarbon::class),
            fn ($v, $i) => hx_models_read($v, $i, HxModelWithCarbon::class),
        ),
        'raw_datetime_object' => hx_workload(
            fn () => new HxNativeDates(
                new DateTimeImmutable('2026-05-01 10:30:45.123456', new DateTimeZone('Asia/Tokyo')),
                new DateTime('2027-07-04 14:35:51.654321', new DateTimeZone('Europe/Paris')),
                new DateTimeZone('Europe/Paris'),
                hx_native_timeline(),
            ),
            fn ($v) => hx_dates_check($v, HxNativeDates::class),
            fn ($v, $i) => hx_dates_read($v, $i, HxNativeDates::class),
        ),
        'raw_model_object' => hx_workload(
            'hx_native_models',
            fn ($v) => hx_models_check($v, HxModelWithDateTime::class),
            fn ($v, $i) => hx_models_read($v, $i, HxModelWithDateTime::class),
        ),
        'serialized_cycle_object' => hx_workload(
            fn () => hx_peers('serialized-root', 'serialized-peer'),
            fn ($v) => hx_peer_check($v, false),
            'hx_peer_read',
            null,
            true,
        ),
        'reference_assignment_object' => hx_workload(
            fn () => new HxParent('reference-root', new HxChild('reference-child', 1)),
            fn ($v) => ($v instanceof HxParent || hx_fail('parent')) . $v->name . '|' . $v->child->label . '|' . $v->child->revision,
            fn ($v, $i) => $v->child->revision + strlen($v->child->label) + $i,
        ),
        'cycle_assignment_object' => hx_workload(
            fn () => hx_peers('cycle-root', 'cycle-peer'),
            fn ($v) => hx_peer_check($v, true),
            'hx_peer_read',
            null,
            true,
        ),
        'nested_array_assignment' => hx_workload(
            fn () => ['name' => 'nested-array-root', 'nodes' => hx_nested_nodes()],
            fn ($v) => $v['name'] . '|' . $v['nodes'][7]['label'] . '|' . $v['nodes'][7]['revision'] . '|' . (int)$v['nodes'][7]['children'][2]['enabled'],
            fn ($v, $i) => $v['nodes'][$i % 24]['revision'] + strlen($v['nodes'][$i % 24]['label']) + (int)$v['nodes'][$i % 24]['children'][2]['enabled'],
        ),
    ];
}
