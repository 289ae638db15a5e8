<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Component\Cache\Adapter\ChainAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;
use Symfony\Contracts\Cache\ItemInterface;

// namespace, default lifetime, version (a deploy id clears the namespace), Resident pool
$resident = new ResidentAdapter('catalog', 3600, null, 'symfony');

// Symfony's CacheInterface::get(): computed once, then served from the pool;
// the third argument is beta, for probabilistic early expiration.
$price = $resident->get('price-42', function (ItemInterface $item): float {
    $item->expiresAfter(600);

    return 19.99;
}, 1.0);
echo $price, "\n";

// In a chain: a per-request ArrayAdapter in front, the shared pool behind.
$chain = new ChainAdapter([new ArrayAdapter(), $resident]);
echo $chain->get('price-42', fn () => 0.0), "\n";

// With tags.
$tagged = new TagAwareAdapter($resident);
$tagged->get('product-42', function (ItemInterface $item): string {
    $item->tag(['products', 'product-42']);

    return 'Teapot';
});
$tagged->invalidateTags(['products']);
var_dump($tagged->getItem('product-42')->isHit());
