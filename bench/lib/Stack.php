<?php
/**
 * nginx + php-fpm on 127.0.0.1 for the HTTP benchmarks: php-fpm masters
 * (pm=static) with their own ini, one nginx routing a path prefix to each,
 * all in a private directory. Every process is stopped when the script
 * ends, also on failure.
 */
final class Stack
{
    public readonly string $dir;
    public readonly int $port;
    private array $procs = [];
    /** name => proc of the php-fpm masters, spawn()ed processes and nginx */
    private array $named = [];
    private array $locations = [];

    public function __construct(private readonly string $fpmBinary = '/usr/sbin/php-fpm8.2')
    {
        $this->dir = sys_get_temp_dir() . '/resident-bench-' . getmypid();
        @mkdir($this->dir);
        $this->port = 18000 + getmypid() % 2000;
        register_shutdown_function([$this, 'stop']);
        if (function_exists('pcntl_async_signals')) {
            // Interrupted (Ctrl-C, timeout): the servers stop on the way out.
            pcntl_async_signals(true);
            foreach ([SIGINT, SIGTERM] as $signal) {
                pcntl_signal($signal, fn () => exit(1));
            }
        }
    }

    public static function fail(string $msg): never
    {
        fwrite(STDERR, "bench: $msg\n");
        exit(1);
    }

    public static function run(string $cmd): string
    {
        exec($cmd . ' 2>&1', $out, $rc);
        if ($rc !== 0) {
            self::fail("`$cmd` failed:\n" . implode("\n", $out));
        }
        return implode("\n", $out);
    }

    /**
     * Starts a php-fpm master with these ini lines; requests under $prefix go to $script. With
     * $stripPrefix, the script sees the path without $prefix in REQUEST_URI (for apps that route
     * on it: /plain/users reaches the app as /users).
     */
    public function fpm(string $name, string $prefix, string $script, array $ini, array $params = [], int $workers = 2,
        bool $stripPrefix = false): void
    {
        $d = "{$this->dir}/$name";
        @mkdir($d);
        file_put_contents("$d/php.ini", implode("\n", $ini) . "\n");
        file_put_contents("$d/fpm.conf", "[global]\npid = $d/fpm.pid\nerror_log = $d/fpm.log\ndaemonize = no\n"
            . "[$name]\nlisten = $d/fpm.sock\n; nginx workers do not run as root\nlisten.mode = 0666\n"
            . "pm = static\npm.max_children = $workers\npm.max_requests = 0\nclear_env = no\ncatch_workers_output = yes\n");
        $this->procs[] = $this->named[$name] = proc_open([$this->fpmBinary, '-n', '-c', "$d/php.ini", '-y', "$d/fpm.conf", '-F', '-R'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$d/stderr", 'w']], $pipes, null,
            ['PHP_INI_SCAN_DIR' => '', 'PATH' => getenv('PATH'), 'TMPDIR' => $this->dir]);
        $this->locations[$prefix] = ['sock' => "$d/fpm.sock", 'script' => $script, 'params' => $params, 'log' => "$d/fpm.log",
            'strip' => $stripPrefix];
    }

    /** Starts another process stopped with the servers (stderr to $name.stderr in the directory, shown by logs()). */
    public function spawn(string $name, array $cmd, array $env = []): void
    {
        $this->procs[] = $this->named[$name] = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'],
            2 => ['file', "{$this->dir}/$name.stderr", 'w']], $pipes, null,
            $env + ['PHP_INI_SCAN_DIR' => '', 'PATH' => getenv('PATH'), 'TMPDIR' => $this->dir]);
    }

    /** Starts nginx over every php-fpm started so far, and waits until $probe answers as $ready says. */
    public function start(string $probe, callable $ready): void
    {
        $locations = '';
        foreach ($this->locations as $prefix => $l) {
            $params = '';
            $rewrite = '';
            if ($l['strip']) {
                // php-fpm keeps the last of two params of one name: this REQUEST_URI wins over fastcgi_params'.
                $rewrite = '            rewrite ^' . rtrim($prefix, '/') . "(/.*)\$ \$1 break;\n";
                $l['params']['REQUEST_URI'] = '$uri$is_args$args';
            }
            foreach ($l['params'] as $k => $v) {
                $params .= "            fastcgi_param $k $v;\n";
            }
            $locations .= "        location $prefix {\n$rewrite            include /etc/nginx/fastcgi_params;\n"
                . "            fastcgi_param SCRIPT_FILENAME {$l['script']};\n$params"
                . "            fastcgi_pass unix:{$l['sock']};\n        }\n";
        }
        $d = $this->dir;
        file_put_contents("$d/nginx.conf", "worker_processes 1;\ndaemon off;\npid $d/nginx.pid;\nerror_log $d/nginx.log;\n"
            . "events { worker_connections 1024; }\nhttp {\n    access_log off;\n    keepalive_requests 1000000;\n"
            . "    client_body_temp_path $d;\n    fastcgi_temp_path $d;\n    proxy_temp_path $d;\n    uwsgi_temp_path $d;\n"
            . "    scgi_temp_path $d;\n    server {\n        listen 127.0.0.1:{$this->port};\n$locations    }\n}\n");
        $this->procs[] = $this->named['nginx'] = proc_open(['/usr/sbin/nginx', '-c', "$d/nginx.conf", '-p', $d],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        for ($i = 0; $i < 100; $i++) {
            usleep(100000);
            if ($ready($this->get($probe))) {
                return;
            }
        }
        self::fail("nginx/php-fpm did not come up:\n" . $this->logs());
    }

    /**
     * CPU time (ns, /proc/PID/schedstat) used so far by the named processes ('nginx', a php-fpm
     * master's name, a spawn()ed name) and their children: a load-independent view of what a
     * request costs the servers, unlike requests/s.
     */
    public function cpuNs(array $names): int
    {
        $parents = [];
        foreach ($names as $name) {
            $parents[proc_get_status($this->named[$name])['pid']] = true;
        }
        $ns = 0;
        foreach (glob('/proc/[0-9]*/stat') as $stat) {
            // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
            $line = (string)@file_get_contents($stat);
            if (!str_contains($line, ') ')) {
                continue; // exited since glob()
            }
            $pid = (int)$line;
            $ppid = (int)explode(' ', substr($line, strrpos($line, ')') + 2))[1];
            if (isset($parents[$pid]) || isset($parents[$ppid])) {
                $ns += (int)@file_get_contents(dirname($stat) . '/schedstat');
            }
        }
        return $ns;
    }

    public function logs(): string
    {
        $files = array_merge(["{$this->dir}/nginx.log"], array_column($this->locations, 'log'), glob("{$this->dir}/*/stderr"),
            glob("{$this->dir}/*.stderr"));
        return implode("\n", array_map(fn ($f) => "$f:\n" . @file_get_contents($f), $files));
    }

    public function url(string $path): string
    {
        return "http://127.0.0.1:{$this->port}$path";
    }

    public function get(string $path, ?array &$headers = null): ?string
    {
        $ctx = stream_context_create(['http' => ['timeout' => 10, 'ignore_errors' => true]]);
        $body = @file_get_contents($this->url($path), false, $ctx);
        $headers = [];
        foreach ($http_response_header ?? [] as $h) {
            if (str_contains($h, ':')) {
                [$k, $v] = explode(':', $h, 2);
                $headers[strtolower(trim($k))] = trim($v);
            }
        }
        return $body === false ? null : $body;
    }

    public function stop(): void
    {
        foreach ($this->procs as $p) {
            $st = proc_get_status($p);
            if ($st['running']) {
                posix_kill($st['pid'], SIGTERM);
            }
        }
        foreach ($this->procs as $p) {
            proc_close($p);
        }
        $this->procs = [];
        $this->named = [];
        if (is_dir($this->dir)) {
            if (!getenv("KEEP")) exec("rm -rf " . escapeshellarg($this->dir));
        }
    }
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n === 0 ? 0.0 : ($n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2);
}
