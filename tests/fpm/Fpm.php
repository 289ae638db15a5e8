<?php
require_once __DIR__ . '/FastCgi.php';

/**
 * Starts a php-fpm master (pm=static) with the given ini lines on a unix
 * socket in a private directory, and stops it again.
 */
final class Fpm
{
    public readonly string $dir;
    public readonly FastCgi $client;
    /** @var array<string, FastCgi> one client per extra pool */
    public array $clients = [];
    private $proc;

    /** $extraPools: more pools, name => their settings, each on {dir}/{name}.sock; $env: the master's environment, which its workers inherit. */
    public function __construct(string $fpmBinary, array $ini, int $workers = 2, array $poolExtra = [], array $extraPools = [], array $env = [])
    {
        $this->dir = sys_get_temp_dir() . '/resident-fpm-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($this->dir);
        file_put_contents("{$this->dir}/php.ini", implode("\n", $ini) . "\n");
        $pool = array_merge([
            'listen' => "{$this->dir}/fpm.sock",
            'pm' => 'static',
            'pm.max_children' => $workers,
            'catch_workers_output' => 'yes',
            'clear_env' => 'no',
        ], $poolExtra);
        $conf = "[global]\nerror_log = {$this->dir}/fpm.log\ndaemonize = no\n[test]\n";
        foreach ($pool as $k => $v) {
            $conf .= "$k = $v\n";
        }
        foreach ($extraPools as $name => $settings) {
            $conf .= "[$name]\n";
            foreach (array_merge(['listen' => "{$this->dir}/$name.sock", 'pm' => 'static', 'pm.max_children' => $workers,
                'catch_workers_output' => 'yes', 'clear_env' => 'no'], $settings) as $k => $v) {
                $conf .= "$k = $v\n";
            }
            $this->clients[$name] = new FastCgi("{$this->dir}/$name.sock");
        }
        file_put_contents("{$this->dir}/fpm.conf", $conf);
        $this->proc = proc_open([$fpmBinary, '-n', '-c', "{$this->dir}/php.ini", '-y', "{$this->dir}/fpm.conf", '-F', '-R'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', "{$this->dir}/stdout", 'w'], 2 => ['file', "{$this->dir}/stderr", 'w']],
            $pipes, null, ['PHP_INI_SCAN_DIR' => '', 'PATH' => getenv('PATH')] + $env);
        $this->client = new FastCgi("{$this->dir}/fpm.sock");
        for ($i = 0; $i < 100 && !file_exists("{$this->dir}/fpm.sock"); $i++) {
            usleep(50000);
        }
        if (!file_exists("{$this->dir}/fpm.sock")) {
            throw new RuntimeException("php-fpm did not start:\n" . $this->log());
        }
    }

    public function log(): string
    {
        return @file_get_contents("{$this->dir}/fpm.log") . @file_get_contents("{$this->dir}/stderr");
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
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    public function __destruct()
    {
        $this->stop();
    }
}
