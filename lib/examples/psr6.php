<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Resident\Psr6\CacheItemPool;

$pool = new CacheItemPool('app');

$item = $pool->getItem('report');
if (!$item->isHit()) {
    $item->set(['rows' => 42])->expiresAfter(new DateInterval('PT5M'));
    $pool->save($item);
}
echo json_encode($pool->getItem('report')->get()), "\n";

// Deferred saves are kept in the pool object until commit() (or its destruction).
$pool->saveDeferred($pool->getItem('a')->set(1));
$pool->saveDeferred($pool->getItem('b')->set(2)->expiresAt(new DateTimeImmutable('+1 hour')));
var_dump($pool->hasItem('a'));   // deferred items are already visible
$pool->commit();

foreach ($pool->getItems(['a', 'b', 'c']) as $key => $item) {
    echo $key, ': ', $item->isHit() ? json_encode($item->get()) : 'miss', "\n";
}
