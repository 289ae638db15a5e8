<?php

declare(strict_types=1);

/*
 * Autoloading for the tests and the examples where lib/ has no vendor/
 * directory: the frameworks from Debian's packages (/usr/share/php), and
 * this library as its composer.json declares it (so running the tests also
 * checks that declaration). After `composer install` in lib/, Composer's
 * own vendor/autoload.php is used instead.
 */
(static function (): void {
    $lib = dirname(__DIR__);
    if (is_file("$lib/vendor/autoload.php")) {
        require "$lib/vendor/autoload.php";

        return;
    }
    foreach ([
        'Psr/SimpleCache/autoload.php',
        'Psr/Cache/autoload.php',
        'Symfony/Component/Cache/autoload.php',
        'Illuminate/Cache/autoload.php',
        'Illuminate/Container/autoload.php',
        'Illuminate/Config/autoload.php',
        'Symfony/Component/DependencyInjection/autoload.php',
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
})();
