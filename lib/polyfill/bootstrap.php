<?php

declare(strict_types=1);

/*
 * Composer loads this file on every request. With the extension loaded it
 * defines nothing: Resident\Cache is then the extension's class, even when
 * the extension is switched off (it then behaves as an always-empty cache).
 * The same goes for UserCache\Cache, which the extension defines too.
 */
if (!class_exists(\Resident\Cache::class, false)) {
    require_once __DIR__ . '/Polyfill/Storage.php';
    require_once __DIR__ . '/Polyfill/ArrayStorage.php';
    require_once __DIR__ . '/Polyfill/ApcuStorage.php';
    require_once __DIR__ . '/Polyfill/Arguments.php';
    require_once __DIR__ . '/Polyfill/Encoding.php';
    require_once __DIR__ . '/Polyfill/Statistics.php';
    require_once __DIR__ . '/KeyIterator.php';
    require_once __DIR__ . '/Cache.php';
    if (!class_exists(\Resident\RequestOverStatic::class, false)) {
        require_once __DIR__ . '/RequestOverStatic.php';
    }
    // ext-user_cache's classes, unless a PHP that bundles it defines them.
    if (!class_exists(\UserCache\Cache::class, false)) {
        require_once __DIR__ . '/UserCache/CacheAvailability.php';
        require_once __DIR__ . '/UserCache/CacheStatus.php';
        require_once __DIR__ . '/UserCache/CachePoolStatus.php';
        require_once __DIR__ . '/UserCache/Cache.php';
    }
}
