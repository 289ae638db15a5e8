<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Resident\Psr16Cache;

// One Resident pool per cache: clear() empties the whole pool.
$cache = new Psr16Cache('app', defaultTtl: 3600);

$cache->set('config', ['debug' => false, 'locale' => 'fr'], 300);
echo json_encode($cache->get('config')), "\n";

// A stored null is a hit: PSR-16 tells it from a miss.
$cache->set('nothing', null);
var_dump($cache->has('nothing'), $cache->get('nothing', 'default'), $cache->get('absent', 'default'));

$cache->setMultiple(['a' => 1, 'b' => 2], new DateInterval('PT10M'));
echo json_encode($cache->getMultiple(['a', 'b', 'c'], 'missing')), "\n";

// A TTL of 0 or less deletes.
$cache->set('a', 'gone', 0);
var_dump($cache->has('a'));

try {
    $cache->get('not:valid');
} catch (Psr\SimpleCache\InvalidArgumentException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
