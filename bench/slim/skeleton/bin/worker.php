<?php

declare(strict_types=1);

/*
 * The worker-mode anchor: a long-lived PHP process that boots the app once
 * (boot.php, then the middleware serve.php adds per request under php-fpm)
 * and serves HTTP/1.1 with keep-alive on 127.0.0.1 itself, one
 * stream_select() loop, no nginx in front (as RoadRunner or FrankenPHP
 * workers). Several processes share the port with SO_REUSEPORT. Per request
 * it builds a Slim\Psr7 request from what it read, runs $app->handle() and
 * writes the response with the headers ResponseEmitter adds. Written for
 * the bench: GET/HEAD/OPTIONS and small bodies with Content-Length only.
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
use Psr\Http\Message\ResponseInterface;
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

function wire(ResponseInterface $response, bool $head): string
{
    $body = $head ? '' : (string)$response->getBody();
    $out = sprintf("HTTP/1.1 %d %s\r\n", $response->getStatusCode(), $response->getReasonPhrase());
    foreach ($response->getHeaders() as $name => $values) {
        foreach ($values as $value) {
            $out .= "$name: $value\r\n";
        }
    }
    return $out . 'Content-Length: ' . strlen((string)$response->getBody()) . "\r\n\r\n" . $body;
}

if (isset($opts['loop'])) {
    for ($i = 0, $n = (int)$opts['loop']; $i < $n; $i++) {
        $response = $app->handle(request('GET', '/', ['host' => '127.0.0.1'], '', 80, $streams));
        $body = (string)ResponseEmitter::withApiHeaders($response, '')->getBody();
    }
    echo $body ?? '';
    exit(0);
}

$port = (int)$opts['port'];
$context = stream_context_create(['socket' => ['so_reuseport' => true, 'tcp_nodelay' => true, 'backlog' => 1024]]);
$server = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($server === false) {
    fwrite(STDERR, "worker: cannot listen on 127.0.0.1:$port: $errstr\n");
    exit(1);
}
stream_set_blocking($server, false);
$clients = [];
$buffers = [];
$close = static function ($c) use (&$clients, &$buffers): void {
    unset($clients[(int)$c], $buffers[(int)$c]);
    fclose($c);
};
for (;;) {
    $read = $clients;
    $read[] = $server;
    $write = $except = null;
    if (@stream_select($read, $write, $except, null) === false) {
        continue; // interrupted by a signal
    }
    foreach ($read as $c) {
        if ($c === $server) {
            // Another process may have taken the connection first.
            if ($new = @stream_socket_accept($server, 0)) {
                stream_set_blocking($new, false);
                $clients[(int)$new] = $new;
                $buffers[(int)$new] = '';
            }
            continue;
        }
        $data = @fread($c, 65536);
        if ($data === false || ($data === '' && feof($c))) {
            $close($c);
            continue;
        }
        $buffers[(int)$c] .= $data;
        // Every complete request in the buffer, in order.
        while (($end = strpos($buffers[(int)$c], "\r\n\r\n")) !== false) {
            $lines = explode("\r\n", substr($buffers[(int)$c], 0, $end));
            [$method, $target] = explode(' ', array_shift($lines), 3);
            $headers = [];
            foreach ($lines as $line) {
                [$name, $value] = explode(':', $line, 2);
                $headers[strtolower($name)] = trim($value);
            }
            $length = (int)($headers['content-length'] ?? 0);
            if (strlen($buffers[(int)$c]) < $end + 4 + $length) {
                break; // the body is still coming
            }
            $body = substr($buffers[(int)$c], $end + 4, $length);
            $buffers[(int)$c] = (string)substr($buffers[(int)$c], $end + 4 + $length);
            $response = ResponseEmitter::withApiHeaders(
                $app->handle(request($method, $target, $headers, $body, $port, $streams)), $headers['origin'] ?? '');
            $out = wire($response, $method === 'HEAD');
            // Responses are small; a full socket buffer only waits here.
            while ($out !== '') {
                $n = @fwrite($c, $out);
                if ($n === false) {
                    $close($c);
                    continue 3;
                }
                $out = substr($out, $n);
                if ($out !== '') {
                    $w = [$c];
                    $r = $e = null;
                    stream_select($r, $w, $e, 1);
                }
            }
            if (strcasecmp($headers['connection'] ?? '', 'close') === 0) {
                $close($c);
                continue 2;
            }
        }
    }
}
