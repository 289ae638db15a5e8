<?php

declare(strict_types=1);

/*
 * The HTTP side of the benches' worker-mode anchors (bench/<app>/skeleton/
 * bin/worker.php; app_bench.php copies this file next to it): HTTP/1.1
 * with keep-alive on 127.0.0.1, one stream_select() loop per process,
 * several processes sharing the port with SO_REUSEPORT. Written for the
 * benches: requests with a Content-Length body or none, no chunked bodies,
 * no TLS. $handle(method, target, lower-case headers, body) returns
 * [status, reason, headers (name => list of values), body].
 */
function http_loop(int $port, Closure $handle): never
{
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
                [$status, $reason, $outHeaders, $outBody] = $handle($method, $target, $headers, $body);
                $out = "HTTP/1.1 $status $reason\r\n";
                foreach ($outHeaders as $name => $values) {
                    if (strcasecmp($name, 'content-length') !== 0) {
                        foreach ($values as $value) {
                            $out .= "$name: $value\r\n";
                        }
                    }
                }
                $out .= 'Content-Length: ' . strlen($outBody) . "\r\n\r\n" . ($method === 'HEAD' ? '' : $outBody);
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
}
