<?php

declare(strict_types=1);

/*
 * Autoloading for the tests without a vendor/ directory: the frameworks
 * from Debian's packages (/usr/share/php), and this library as its
 * composer.json declares it, so the tests also check that declaration.
 * After `composer install` in lib/, vendor/autoload.php is used instead.
 */

$lib = dirname(__DIR__);

if (is_file("$lib/vendor/autoload.php")) {
    require "$lib/vendor/autoload.php";
} else {
    foreach ([
        'Psr/SimpleCache/autoload.php',
        'Psr/Cache/autoload.php',
        'Symfony/Component/Cache/autoload.php',
        'Illuminate/Cache/autoload.php',
        'Illuminate/Container/autoload.php',
        'Illuminate/Config/autoload.php',
    ] as $debianAutoloader) {
        if (stream_resolve_include_path($debianAutoloader) !== false) {
            require_once $debianAutoloader;
        }
    }

    $composer = json_decode((string) file_get_contents("$lib/composer.json"), true, flags: JSON_THROW_ON_ERROR);
    $prefixes = $composer['autoload']['psr-4'] + $composer['autoload-dev']['psr-4'];
    spl_autoload_register(static function (string $class) use ($lib, $prefixes): void {
        foreach ($prefixes as $prefix => $dir) {
            if (str_starts_with($class, $prefix)) {
                $file = "$lib/$dir" . strtr(substr($class, strlen($prefix)), '\\', '/') . '.php';
                if (is_file($file)) {
                    require $file;

                    return;
                }
            }
        }
    });
    foreach ($composer['autoload']['files'] as $file) {
        require_once "$lib/$file";
    }
}

// The frameworks' contract tests, copied into tests/Upstream (see its README).
spl_autoload_register(static function (string $class): void {
    $upstream = [
        'Cache\\IntegrationTests\\' => __DIR__ . '/Upstream/php-cache-integration-tests/',
        'Symfony\\Component\\Cache\\Tests\\Adapter\\' => __DIR__ . '/Upstream/symfony-cache/Adapter/',
    ];
    foreach ($upstream as $prefix => $dir) {
        if (str_starts_with($class, $prefix) && is_file($file = $dir . strtr(substr($class, strlen($prefix)), '\\', '/') . '.php')) {
            require $file;
        }
    }
});
