<?php

declare(strict_types=1);

/*
 * The worker-mode anchor: a long-lived PHP process that boots the app once
 * (boot.php, then the middleware serve.php adds per request under php-fpm)
 * and serves HTTP itself (http_loop.php: copied from bench/lib by the bench;
 * no nginx in front, as RoadRunner or FrankenPHP workers). Per request it
 * builds a Slim\Psr7 request from what it read, runs $app->handle() and
 * answers with the headers ResponseEmitter adds.
 * Not kept from serve.php: the shutdown handler (it turns a fatal error of
 * one fpm request into a response; here a fatal error ends the process).
 *
 *   php bin/worker.php --port=N          serve until killed
 *   php bin/worker.php --loop=N          handle N requests for "/" in-process, no HTTP,
 *                                        and print the last body (for callgrind)
 */

use App\Application\Handlers\HttpErrorHandler;
use App\Application\ResponseEmitter\ResponseEmitter;
use App\Application\Settings\SettingsInterface;
use Slim\App;
use Slim\Psr7\Factory\StreamFactory;
use Slim\Psr7\Headers;
use Slim\Psr7\Request;
use Slim\Psr7\Uri;

require __DIR__ . '/../vendor/autoload.php';

$opts = getopt('', ['port:', 'loop:', 'code:']) + ['code' => __DIR__ . '/../app'];

$app = (require __DIR__ . '/../app/boot.php')($opts['code']);
(static function (App $app): void {
    $settings = $app->getContainer()->get(SettingsInterface::class);
    (require __DIR__ . '/../app/middleware.php')($app);
    $errorHandler = new HttpErrorHandler($app->getCallableResolver(), $app->getResponseFactory());
    $app->addRoutingMiddleware();
    $app->addBodyParsingMiddleware();
    $app->addErrorMiddleware($settings->get('displayErrorDetails'), $settings->get('logError'), $settings->get('logErrorDetails'))
        ->setDefaultErrorHandler($errorHandler);
})($app);

$streams = new StreamFactory();

/** @param array<string, string> $headers lower-case names */
function request(string $method, string $target, array $headers, string $body, int $port, StreamFactory $streams): Request
{
    [$path, $query] = array_pad(explode('?', $target, 2), 2, '');
    $server = ['REQUEST_METHOD' => $method, 'REQUEST_URI' => $target, 'QUERY_STRING' => $query, 'SERVER_PROTOCOL' => 'HTTP/1.1',
        'SERVER_ADDR' => '127.0.0.1', 'SERVER_PORT' => $port, 'REQUEST_TIME_FLOAT' => microtime(true), 'REQUEST_TIME' => time()];
    foreach ($headers as $name => $value) {
        $server['HTTP_' . strtoupper(strtr($name, '-', '_'))] = $value;
    }
    $request = new Request($method, new Uri('http', '127.0.0.1', $port, $path, $query), new Headers($headers), [], $server,
        $streams->createStream($body));
    if ($query !== '') {
        parse_str($query, $params);
        $request = $request->withQueryParams($params);
    }
    return $request;
}

if (isset($opts['loop'])) {
    for ($i = 0, $n = (int)$opts['loop']; $i < $n; $i++) {
        $response = $app->handle(request('GET', '/', ['host' => '127.0.0.1'], '', 80, $streams));
        $body = (string)ResponseEmitter::withApiHeaders($response, '')->getBody();
    }
    echo $body ?? '';
    exit(0);
}

require __DIR__ . '/http_loop.php';
$port = (int)$opts['port'];
http_loop($port, static function (string $method, string $target, array $headers, string $body) use ($app, $port, $streams): array {
    $response = ResponseEmitter::withApiHeaders($app->handle(request($method, $target, $headers, $body, $port, $streams)),
        $headers['origin'] ?? '');
    return [$response->getStatusCode(), $response->getReasonPhrase(), $response->getHeaders(), (string)$response->getBody()];
});
