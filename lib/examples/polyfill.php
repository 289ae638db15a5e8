<?php

declare(strict_types=1);

// Composer's autoloader loads polyfill/bootstrap.php, which defines
// Resident\Cache only when the extension is not loaded: this runs the same
// with the extension, with APCu, or with neither.
require __DIR__ . '/autoload.php';

use Resident\Cache;

$cache = Cache::pool('app');

$cache->store('greeting', 'hello', ttl: 60);
echo $cache->fetch('greeting'), "\n";
var_dump($cache->add('greeting', 'again'));     // only if absent

echo $cache->increment('visits'), ' ', $cache->increment('visits', 10), "\n";
echo $cache->remember('report', fn () => 'built once', ttl: 300), "\n";
echo $cache->remember('report', fn () => 'built twice', ttl: 300), "\n";

$missing = new stdClass();
var_dump($cache->fetch('absent', $missing) === $missing);

try {
    $cache->store('log', fopen('php://memory', 'r'));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}

$keys = iterator_to_array($cache->keys());
sort($keys);
echo implode(',', $keys), "\n";
