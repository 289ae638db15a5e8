<?php
// What bench/lib/app_bench.php runs for the Laravel app (see bench/README.md).
return [
    'id' => 'laravel',
    'title' => 'Laravel 12 skeleton-shaped app: php-fpm, opcache.preload, worker mode',
    'source' => __DIR__ . '/skeleton',
    'packages' => ['laravel/framework', 'symfony/http-foundation', 'symfony/routing'],
    // Laravel needs these; the Slim app does not.
    'ini' => ['extension=ctype.so', 'extension=mbstring.so', 'extension=tokenizer.so', 'extension=fileinfo.so'],
    'paths' => ['/', '/nope'],
    // name => [label, front controller in public/ (null: bin/worker.php), what the ini adds: resident, preload]
    'configs' => [
        'plain' => ['plain php-fpm: the app booted by every request', 'index.php', []],
        'plain_preload' => ['plain + opcache.preload', 'index.php', ['preload']],
        'floor' => ['floor: `<?php echo "Hello world!";` under php-fpm', 'hello.php', []],
        'worker' => ['worker-mode anchor: 2 CLI processes, app booted once each, HTTP served in PHP (no nginx); between requests it resets only the queued cookies and the session store', null, []],
    ],
    'controls' => [],
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
        'No Resident kept-app here: Laravel\'s container holds its bindings as closures (every service provider registers closures),'
        . ' so a booted Laravel app cannot be stored until Resident keeps closures; a closure-free copy, as for Slim, would mean'
        . ' rewriting the framework\'s providers. The session driver is `cookie` and the cache `file` because the skeleton\'s'
        . ' database defaults need pdo_sqlite, which this machine does not have. The app runs as the skeleton ships, without'
        . ' `php artisan optimize` (config, route, event and view caches), as `plain` does for Slim.',
    ],
];
