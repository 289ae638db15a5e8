<?php

declare(strict_types=1);

/*
 * An auto_prepend_file for the app benches (app_bench.php copies it into
 * the app's bin/): at the end of each request, appends to the file
 * $CLASS_LIST the named classes, interfaces and traits the request
 * declared from the app's files (its own and vendor/), one per line.
 * preload.php preloads what these lines name.
 */
register_shutdown_function(static function (): void {
    $root = dirname(__DIR__) . '/';
    $names = [];
    foreach ([get_declared_classes(), get_declared_interfaces(), get_declared_traits()] as $list) {
        foreach ($list as $name) {
            $file = (new ReflectionClass($name))->getFileName();
            if ($file !== false && str_starts_with($file, $root) && !str_contains($name, '@anonymous')) {
                $names[] = $name;
            }
        }
    }
    file_put_contents((string)getenv('CLASS_LIST'), implode("\n", $names) . "\n", FILE_APPEND);
});
