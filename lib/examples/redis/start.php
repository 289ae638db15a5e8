<?php

declare(strict_types=1);

// A throwaway redis-server for the Tiered example, on a free port of
// 127.0.0.1, stopped when the example ends; returns a client connected to it.
require_once __DIR__ . '/../../tests/Tiered/Servers/Server.php';
require_once __DIR__ . '/../../tests/Tiered/Servers/RedisServer.php';

$GLOBALS['exampleRedisServer'] = new Resident\Tests\Tiered\Servers\RedisServer();

return $GLOBALS['exampleRedisServer']->client();
