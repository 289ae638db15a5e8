<?php
// What bench/lib/app_bench.php runs for the Slim app (see bench/README.md).
return [
    'id' => 'slim',
    'title' => 'Slim 4 skeleton-shaped app: php-fpm, opcache.preload, Resident kept-app, worker mode',
    'source' => __DIR__ . '/skeleton',
    'packages' => ['slim/slim', 'slim/psr7', 'php-di/php-di', 'monolog/monolog', 'nikic/fast-route'],
    'ini' => [],
    'paths' => ['/', '/users', '/users/9'],
    // name => [label, front controller in public/ (null: bin/worker.php), what the ini adds: resident, preload]
    'configs' => [
        'plain' => ['plain php-fpm: the app booted by every request', 'index.php', []],
        'plain_preload' => ['plain + opcache.preload', 'index.php', ['preload']],
        'kept' => ['Resident kept-app: the app as written, booted once per deploy by `Cache::keep()`, a fresh copy per request', 'kept.php', ['resident']],
        'kept_preload' => ['Resident kept-app + opcache.preload', 'kept.php', ['resident', 'preload']],
        'floor' => ['floor: `<?php echo "Hello world!";` under php-fpm', 'hello.php', []],
        'worker' => ['worker-mode anchor: 2 CLI processes, app booted once each, HTTP served in PHP (no nginx)', null, []],
    ],
    // Instructions only: where kept_preload's go (bench/lib/app_bench.php reports it).
    'controls' => [
        'control_keep_only' => ['control: `kept_preload` fetching the kept app, then echoing the body without serving', 'kept-keep-only.php', ['resident', 'preload']],
        'control_serve_twice' => ['control: `kept_preload` serving "/" twice in the request, the first output dropped', 'kept-serve-twice.php', ['resident', 'preload']],
    ],
    'fetch_parts' => true,
    'notes' => [
        'The kept app is `public/kept.php` with `app/kept.php`: the app as written (PHP-DI closure definitions, routes as closures,'
        . ' Slim\'s middleware wrapped in anonymous classes), its middleware, error handler and PSR-7 request creator, built once per deploy'
        . ' by `Resident\Cache::keep()` after one `GET /` through it; each request gets a fresh copy, resets the logger, makes its request'
        . ' from the globals, registers the shutdown handler, handles and emits, as `plain` does.',
    ],
];
