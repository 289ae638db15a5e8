<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

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
