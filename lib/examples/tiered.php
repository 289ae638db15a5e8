<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Resident\Tiered;
use Resident\Tiered\Invalidator;
use Resident\Tiered\RespSubscriber;

// In an application: $redis = new Redis(); $redis->connect('redis.internal', 6379);
$redis = require __DIR__ . '/redis/start.php';
$channelAt = 'tcp://' . $redis->getHost() . ':' . $redis->getPort();

// Two hosts in one process, each with its own local pool. On a real host the
// pool is "tiered" in the host's segment, shared by its php-fpm workers.
$hostA = new Tiered('tiered-a', $redis, 'catalog', localTtl: 10);
$hostB = new Tiered('tiered-b', $redis, 'catalog', localTtl: 10);

// Host B's listener: what `bin/resident-invalidator --segment=... --redis=...`
// runs there, for ever. Connecting clears B's local tier.
$listenerB = new Invalidator($hostB->localTier(), $hostB->sharedTier(), fn () => new RespSubscriber($channelAt));
$listenerB->connect();

$hostA->set('price:42', 10, ttl: 3600);
echo $hostB->get('price:42'), "\n";                 // from Redis, now kept in B's local tier
echo $hostB->get('price:42'), "\n";                 // B's local tier

$hostA->set('price:42', 12, ttl: 3600);             // published on the channel
echo $hostB->get('price:42'), " until B's listener hears of it\n";
$listenerB->step(0.1);                              // B's listener applies what came: drops its copy
echo $hostB->get('price:42'), "\n";

echo $hostB->remember('price:43', fn () => 7, ttl: 3600), "\n";
$hostA->clear();                                    // the whole namespace, one message
$listenerB->step(0.1);
var_dump($hostB->get('price:43'), $hostB->get('price:42', 'gone'));

echo json_encode($hostB->stats()), "\n";
echo json_encode($listenerB->counts()), "\n";
