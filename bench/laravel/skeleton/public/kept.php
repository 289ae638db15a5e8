<?php

/*
 * Resident kept-app: public/index.php with the application booted once per
 * deploy by Resident\Cache::keep() (bootstrap/kept.php), a fresh copy of it
 * per request.
 */
define('LARAVEL_START', microtime(true));

// Down for maintenance?
if (file_exists($maintenance = __DIR__ . '/../storage/framework/maintenance.php')) {
    require $maintenance;
}

require __DIR__ . '/../vendor/autoload.php';

$front = require __DIR__ . '/../bootstrap/kept.php';
$kept = Resident\Cache::pool('laravel-bench')->keep('app', $front['build'], $front['reset']);
$front['serve']($kept);
