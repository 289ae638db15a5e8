<?php
// What bench/lib/app_bench.php runs for the Laravel app (see bench/README.md).
return [
    'id' => 'laravel',
    'title' => 'Laravel 12 skeleton-shaped app: php-fpm, opcache.preload, Resident kept-app, worker mode',
    'source' => __DIR__ . '/skeleton',
    'packages' => ['laravel/framework', 'symfony/http-foundation', 'symfony/routing'],
    // Laravel needs these; the Slim app does not.
    'ini' => ['extension=ctype.so', 'extension=mbstring.so', 'extension=tokenizer.so', 'extension=fileinfo.so'],
    'paths' => ['/', '/nope'],
    // name => [label, front controller in public/ (null: bin/worker.php), what the ini adds: resident, preload]
    'configs' => [
        'plain' => ['plain php-fpm: the app booted by every request', 'index.php', []],
        'plain_preload' => ['plain + opcache.preload', 'index.php', ['preload']],
        'kept' => ['Resident kept-app: the app as written, booted once per deploy by `Cache::keep()`, a fresh copy per request', 'kept.php', ['resident']],
        'kept_preload' => ['Resident kept-app + opcache.preload', 'kept.php', ['resident', 'preload']],
        'floor' => ['floor: `<?php echo "Hello world!";` under php-fpm', 'hello.php', []],
        'worker' => ['worker-mode anchor: 2 CLI processes, app booted once each, HTTP served in PHP (no nginx); between requests it resets only the queued cookies and the session store', null, []],
    ],
    'controls' => [],
    'fetch_parts' => true,
    // Issue 25 sets no goal for this app yet: the report gives the numbers only.
    'goal' => false,
    // The .env the skeleton's .env.example would become, with what this machine has: no database
    // (pdo_sqlite is not installed), so sessions in the cookie and the cache in files.
    'setup' => static function (string $app): void {
        foreach (['storage/framework/views', 'storage/framework/cache/data', 'storage/framework/sessions', 'storage/logs', 'bootstrap/cache'] as $d) {
            @mkdir("$app/$d", 0777, true);
        }
        file_put_contents("$app/.env", implode("\n", ['APP_NAME=Laravel', 'APP_ENV=production', 'APP_KEY=base64:' . base64_encode(random_bytes(32)),
            'APP_DEBUG=false', 'APP_URL=http://127.0.0.1', 'LOG_CHANNEL=stderr', 'SESSION_DRIVER=cookie', 'CACHE_STORE=file',
            'QUEUE_CONNECTION=sync', 'DB_CONNECTION=sqlite']) . "\n");
    },
    'kept_code' => '',
    'notes' => [
        'The kept app is `public/kept.php` with `bootstrap/kept.php`: `bootstrap/app.php` as written, its HTTP kernel bootstrapped'
        . ' (`.env`, configuration, providers registered and booted: the container\'s closures, the routes\' closure) and one `GET /`'
        . ' handled through it, built once per deploy by `Resident\\Cache::keep()` with the class statics the boot set (Laravel\'s'
        . ' providers write some: `Container::$instance`, the `Request` macros, Eloquent\'s resolver and dispatcher, the paginator\'s'
        . ' resolvers; a kept value holds no statics). Each request gets a fresh copy and resets it: puts the statics back, sets the'
        . ' timezone and the mbstring encoding the configuration set, registers again the error handlers (`HandleExceptions`), the'
        . ' facades and the alias loader (`RegisterFacades`) and VarDumper\'s handler (its dumper holds a php://output stream, which'
        . ' cannot be kept), forgets the scoped instances, the session store and the queued cookies the building request left; then'
        . ' `$app->handleRequest(Request::capture())`, as `index.php` does. As with `php artisan config:cache`, `.env` is read once'
        . ' per deploy, so `env()` outside the configuration files reads nothing in a kept request.',
        'The session driver is `cookie` and the cache `file` because the skeleton\'s'
        . ' database defaults need pdo_sqlite, which this machine does not have. The app runs as the skeleton ships, without'
        . ' `php artisan optimize` (config, route, event and view caches), as `plain` does for Slim.',
    ],
];
