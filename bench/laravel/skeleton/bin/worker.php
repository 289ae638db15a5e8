<?php

declare(strict_types=1);

/*
 * The worker-mode anchor for the Laravel app: a long-lived PHP process that
 * boots the app and its HTTP kernel once and serves HTTP itself
 * (http_loop.php, copied from bench/lib by the bench). Per request it builds
 * an Illuminate request from what it read, runs the kernel's handle() and
 * terminate(). Minimal on purpose: it resets only what "/" leaves behind
 * (queued cookies, the session store), where Octane gives each request a
 * sandboxed copy of the app and runs a list of reset listeners; enough for
 * the "/" measured here, not for an app.
 *
 *   php bin/worker.php --port=N          serve until killed
 *   php bin/worker.php --loop=N          handle N requests for "/" in-process, no HTTP,
 *                                        and print the last body (for callgrind)
 */

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Http\Request;
use Symfony\Component\HttpFoundation\Response;

define('LARAVEL_START', microtime(true));
require __DIR__ . '/../vendor/autoload.php';

$opts = getopt('', ['port:', 'loop:']);
$app = require __DIR__ . '/../bootstrap/app.php';
$kernel = $app->make(Kernel::class);

$serve = static function (string $method, string $target, array $headers, string $body, int $port) use ($app, $kernel): Response {
    $server = ['SERVER_ADDR' => '127.0.0.1', 'SERVER_PORT' => $port, 'SERVER_PROTOCOL' => 'HTTP/1.1', 'REMOTE_ADDR' => '127.0.0.1',
        'REQUEST_TIME_FLOAT' => microtime(true), 'REQUEST_TIME' => time()];
    foreach ($headers as $name => $value) {
        $server['HTTP_' . strtoupper(strtr($name, '-', '_'))] = $value;
    }
    $request = Request::create($target, $method, [], [], [], $server, $body);
    $response = $kernel->handle($request);
    $kernel->terminate($request, $response);
    // What "/" leaves behind that the next request would see (Octane's FlushQueuedCookies and
    // FlushSessionState listeners do the same): the cookie session driver queues one cookie per
    // session, and the session store keeps its id.
    $app['cookie']->flushQueuedCookies();
    $app['session']->forgetDrivers();
    return $response;
};

if (isset($opts['loop'])) {
    for ($i = 0, $n = (int)$opts['loop']; $i < $n; $i++) {
        $body = $serve('GET', '/', ['host' => '127.0.0.1'], '', 80)->getContent();
    }
    echo $body ?? '';
    exit(0);
}

require __DIR__ . '/http_loop.php';
$port = (int)$opts['port'];
http_loop($port, static function (string $method, string $target, array $headers, string $body) use ($serve, $port): array {
    $response = $serve($method, $target, $headers, $body, $port);
    $out = $response->headers->allPreserveCaseWithoutCookies();
    foreach ($response->headers->getCookies() as $cookie) {
        $out['Set-Cookie'][] = (string)$cookie;
    }
    return [$response->getStatusCode(), Response::$statusTexts[$response->getStatusCode()] ?? '', $out, (string)$response->getContent()];
});
