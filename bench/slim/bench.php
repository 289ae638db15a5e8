<?php
// What bench/lib/app_bench.php runs for the Slim app (see bench/README.md).
const SLIM_CLOSURE_FREE = 'closure-free app code (until closure records land)';

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
        'kept' => ['Resident kept-app: booted app fetched per request; ' . SLIM_CLOSURE_FREE, 'kept.php', ['resident']],
        'kept_preload' => ['Resident kept-app + opcache.preload; ' . SLIM_CLOSURE_FREE, 'kept.php', ['resident', 'preload']],
        'floor' => ['floor: `<?php echo "Hello world!";` under php-fpm', 'hello.php', []],
        'worker' => ['worker-mode anchor: 2 CLI processes, app booted once each, HTTP served in PHP (no nginx)', null, []],
    ],
    // Instructions only: what kept.php's app costs booted per request (it separates the closure rewrite from keeping).
    'controls' => ['cf' => ['control: the closure-free app booted by every request (Resident loaded)', 'cf.php', ['resident']]],
    'fetch_parts' => true,
    'kept_code' => 'the kept app is the ' . SLIM_CLOSURE_FREE,
    'notes' => [
        'The kept app is `public/kept.php`: `boot.php`\'s app (container, App, routes; before middleware) built once, with one'
        . ' `GET /` through it, kept by `Resident\Cache::remember()` and fetched by every request, which then runs the same per-request half'
        . ' (`serve.php`) as `plain`. It boots `app-cf/`, a copy of the app\'s definitions and routes with its closures as invokable classes,'
        . ' because Resident cannot store closures yet; one line of kept.php switches it to the app as written.',
    ],
];
