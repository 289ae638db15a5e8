<?php
/*
 * Prepended to the Resident\Tiered examples of docs/fleets.md: the library's
 * autoloader, and a redis-server of the example's own on 127.0.0.1 (a free
 * port, in REDIS_PORT), stopped when the example ends.
 */
require __DIR__ . '/../../lib/tests/autoload.php';
require_once __DIR__ . '/../../lib/tests/Tiered/Servers/Server.php';
require_once __DIR__ . '/../../lib/tests/Tiered/Servers/RedisServer.php';

$GLOBALS['__residentDocsRedis'] = new Resident\Tests\Tiered\Servers\RedisServer();
putenv('REDIS_PORT=' . $GLOBALS['__residentDocsRedis']->port);
