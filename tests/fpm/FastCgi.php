<?php
/**
 * A minimal FastCGI client: one request per connection, GET only. Enough to
 * talk to a real php-fpm in tests without a web server in between.
 */
final class FastCgi
{
    public function __construct(private string $socket) {}

    /**
     * Runs $script with the query string; returns [headers, body]. $params:
     * more FastCGI parameters (PHP_ADMIN_VALUE, which php-fpm applies to
     * this request only).
     */
    public function get(string $script, string $query = '', float $timeout = 10.0, array $params = []): array
    {
        $conn = @stream_socket_client('unix://' . $this->socket, $errno, $errstr, $timeout);
        if (!$conn) {
            throw new RuntimeException("connect to {$this->socket}: $errstr");
        }
        stream_set_timeout($conn, (int)ceil($timeout));
        $params = [
            'GATEWAY_INTERFACE' => 'FastCGI/1.0',
            'REQUEST_METHOD' => 'GET',
            'SCRIPT_FILENAME' => $script,
            'SCRIPT_NAME' => '/' . basename($script),
            'REQUEST_URI' => '/' . basename($script) . ($query !== '' ? "?$query" : ''),
            'QUERY_STRING' => $query,
            'SERVER_PROTOCOL' => 'HTTP/1.1',
            'SERVER_NAME' => 'localhost',
            'REMOTE_ADDR' => '127.0.0.1',
        ] + $params;
        $body = '';
        foreach ($params as $k => $v) {
            $body .= self::length(strlen($k)) . self::length(strlen($v)) . $k . $v;
        }
        fwrite($conn, self::record(1, pack('nCx5', 1, 0)));     // BEGIN_REQUEST, responder, no keep-alive
        fwrite($conn, self::record(4, $body) . self::record(4, '') . self::record(5, ''));
        $stdout = '';
        while (true) {
            $head = self::read($conn, 8);
            $h = unpack('Cversion/Ctype/nid/nlen/Cpad', $head);
            $content = self::read($conn, $h['len']);
            self::read($conn, $h['pad']);
            if ($h['type'] === 6) {
                $stdout .= $content;
            } elseif ($h['type'] === 3) {
                break;                                       // END_REQUEST
            }
        }
        fclose($conn);
        [$rawHeaders, $out] = explode("\r\n\r\n", $stdout, 2) + ['', ''];
        $headers = [];
        foreach (explode("\r\n", $rawHeaders) as $line) {
            if (str_contains($line, ':')) {
                [$k, $v] = explode(':', $line, 2);
                $headers[strtolower(trim($k))] = trim($v);
            }
        }
        return [$headers, $out];
    }

    private static function record(int $type, string $content): string
    {
        return pack('CCnnCx', 1, $type, 1, strlen($content), 0) . $content;
    }

    private static function length(int $n): string
    {
        return $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
    }

    private static function read($conn, int $n): string
    {
        $buf = '';
        while (strlen($buf) < $n) {
            $chunk = fread($conn, $n - strlen($buf));
            if ($chunk === '' || $chunk === false) {
                throw new RuntimeException('php-fpm closed the connection');
            }
            $buf .= $chunk;
        }
        return $buf;
    }
}
