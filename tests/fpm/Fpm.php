<?php
require_once __DIR__ . '/FastCgi.php';

/**
 * A php-fpm master (pm=static) for a test: its configuration written to a
 * directory of its own, pools listening on unix sockets there, started in
 * the foreground and stopped again. Every test runner that needs php-fpm
 * starts it through this class.
 */
final class Fpm
{
    public readonly string $dir;
    public readonly FastCgi $client;
    /** @var array<string, FastCgi> one client per extra pool */
    public array $clients = [];
    private $proc;
    private bool $ownsDir;

    /**
     * $ini: php.ini lines, or null for the PHP's own configuration (php.ini
     * and its scan directory, as a package installs them).
     * $pool: settings of the main pool (named $name, listening on {dir}/fpm.sock).
     * $extraPools: more pools, name => their settings, each on {dir}/{name}.sock.
     * $env: the master's environment, which its workers inherit.
     * $global: settings of php-fpm's [global] section.
     * $dir: a directory of the caller's to work in (kept on stop), else a new one (removed on stop).
     */
    public function __construct(string $fpmBinary, ?array $ini, int $workers = 2, array $pool = [], array $extraPools = [],
        array $env = [], array $global = [], string $name = 'test', ?string $dir = null)
    {
        $this->ownsDir = $dir === null;
        $this->dir = $dir ?? sys_get_temp_dir() . '/resident-fpm-' . getmypid() . '-' . bin2hex(random_bytes(3));
        @mkdir($this->dir);
        $conf = self::section('global', array_merge(['error_log' => "{$this->dir}/fpm.log", 'daemonize' => 'no'], $global));
        $conf .= self::section($name, array_merge(self::poolDefaults("{$this->dir}/fpm.sock", $workers), $pool));
        foreach ($extraPools as $pname => $settings) {
            $conf .= self::section($pname, array_merge(self::poolDefaults("{$this->dir}/$pname.sock", $workers), $settings));
            $this->clients[$pname] = new FastCgi("{$this->dir}/$pname.sock");
        }
        file_put_contents("{$this->dir}/fpm.conf", $conf);
        $cmd = [$fpmBinary];
        $environment = ['PATH' => getenv('PATH')];
        // A sanitizer build of php-fpm reads its options (where reports go,
        // leak detection) and the allocator switches from the environment.
        foreach (['ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'USE_ZEND_ALLOC', 'USE_TRACKED_ALLOC', 'ZEND_DONT_UNLOAD_MODULES'] as $var) {
            if (($value = getenv($var)) !== false) {
                $environment[$var] = $value;
            }
        }
        if ($ini !== null) {
            file_put_contents("{$this->dir}/php.ini", implode("\n", $ini) . "\n");
            $cmd = array_merge($cmd, ['-n', '-c', "{$this->dir}/php.ini"]);
            $environment['PHP_INI_SCAN_DIR'] = '';
        }
        $this->proc = proc_open(array_merge($cmd, ['-y', "{$this->dir}/fpm.conf", '-F', '-R']),
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', "{$this->dir}/stdout", 'w'], 2 => ['file', "{$this->dir}/stderr", 'w']],
            $pipes, null, $env + $environment);
        $this->client = new FastCgi("{$this->dir}/fpm.sock");
        for ($i = 0; $i < 100 && !file_exists("{$this->dir}/fpm.sock"); $i++) {
            usleep(50000);
        }
        if (!file_exists("{$this->dir}/fpm.sock")) {
            throw new RuntimeException("php-fpm did not start:\n" . $this->log());
        }
    }

    private static function poolDefaults(string $listen, int $workers): array
    {
        return ['listen' => $listen, 'pm' => 'static', 'pm.max_children' => $workers, 'catch_workers_output' => 'yes', 'clear_env' => 'no'];
    }

    private static function section(string $name, array $settings): string
    {
        $text = "[$name]\n";
        foreach ($settings as $k => $v) {
            $text .= "$k = $v\n";
        }
        return $text;
    }

    /**
     * The pid a background request writes to $file once it runs: waited for
     * until the file holds one (it exists, empty, before the pid is in it),
     * for at most a minute; 0 if it never does.
     */
    public static function waitForPid(string $file): int
    {
        for ($i = 0; $i < 1200; $i++) {
            $pid = (int)@file_get_contents($file);
            if ($pid > 0) {
                return $pid;
            }
            usleep(50000);
        }
        return 0;
    }

    public function log(): string
    {
        return @file_get_contents("{$this->dir}/fpm.log") . @file_get_contents("{$this->dir}/stderr");
    }

    /** The master's pid, while it runs. */
    public function pid(): ?int
    {
        $status = $this->proc ? proc_get_status($this->proc) : null;
        return $status && $status['running'] ? $status['pid'] : null;
    }

    public function stop(): void
    {
        if ($this->proc) {
            $status = proc_get_status($this->proc);
            if ($status['running']) {
                posix_kill($status['pid'], SIGQUIT);
                for ($i = 0; $i < 100 && proc_get_status($this->proc)['running']; $i++) {
                    usleep(20000);
                }
                if (proc_get_status($this->proc)['running']) {
                    posix_kill($status['pid'], SIGKILL);
                }
            }
            proc_close($this->proc);
            $this->proc = null;
        }
        if ($this->ownsDir) {
            exec('rm -rf ' . escapeshellarg($this->dir));
        }
    }

    public function __destruct()
    {
        $this->stop();
    }
}
