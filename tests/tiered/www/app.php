<?php
/*
 * The application of one "host" of tests/tiered/run.php: Resident\Tiered
 * over the host's segment (pool "tiered") in front of the test's Redis
 * ($TIERED_REDIS, host:port), local TTL $TIERED_LOCAL_TTL. Answers JSON:
 *   ?op=set&ns=N&key=K&value=JSON[&ttl=S]   {"ok": bool}
 *   ?op=get&ns=N&key=K                      {"value", "hit": bool, "source": "local"|"shared"|"miss", "growth": bytes}
 *   ?op=delete&ns=N&key=K                   {"ok": bool}
 *   ?op=clear&ns=N                          {"generation": int|false}
 *   ?op=big&ns=N&key=K&n=COUNT              stores range(1, COUNT): {"ok": bool}
 *   ?op=status                              Resident's status and this host's name
 * "growth" is what the read added to the request's memory: a value read
 * from the local tier without a copy adds (almost) nothing.
 */
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $file = dirname(__DIR__, 3) . '/lib/src/' . strtr(substr($class, 9), '\\', '/') . '.php';
    if (str_starts_with($class, 'Resident\\') && is_file($file)) {
        require $file;
    }
});

header('Content-Type: application/json');
header('X-Pid: ' . getmypid());

$errors = [];
[$host, $port] = explode(':', (string) getenv('TIERED_REDIS'));
$redis = new Redis();
try {
    $redis->connect($host, (int) $port, 0.5);
} catch (RedisException $e) {
    // Redis is down: Tiered reports each failure through $onError.
    $errors[] = $e->getMessage();
}
// This test is about invalidations between hosts: a deadline of seconds, so
// that a loaded machine does not turn a slow answer into a failed write
// (lib/tests/Tiered/OutageTest checks the default deadline).
$tiered = new Resident\Tiered('tiered', $redis, $_GET['ns'] ?? 'catalog', (int) getenv('TIERED_LOCAL_TTL'),
    onError: function (Resident\Tiered\SharedTierException $e) use (&$errors): void {
        $errors[] = $e->getMessage();
    }, deadline: 5.0);

$key = $_GET['key'] ?? '';
$out = match ($_GET['op'] ?? '') {
    'set' => ['ok' => $tiered->set($key, json_decode($_GET['value'], true), (int) ($_GET['ttl'] ?? 0))],
    'big' => ['ok' => $tiered->set($key, range(1, (int) $_GET['n']))],
    'get' => (function () use ($tiered, $key): array {
        $miss = new stdClass();
        $before = memory_get_usage();
        $value = $tiered->get($key, $miss);
        $growth = memory_get_usage() - $before;
        $stats = $tiered->stats();
        $source = $stats['local_hits'] ? 'local' : ($stats['shared_hits'] ? 'shared' : 'miss');
        $hit = $value !== $miss;

        return ['value' => $hit ? (is_array($value) && count($value) > 10 ? 'array of ' . count($value) : $value) : null,
            'hit' => $hit, 'source' => $source, 'growth' => $growth];
    })(),
    'delete' => ['ok' => $tiered->delete($key)],
    'clear' => ['generation' => $tiered->clear()],
    'status' => ['host' => getenv('TIERED_HOST')] + Resident\Cache::status(),
};
echo json_encode($out + ['errors' => $errors, 'pid' => getmypid()]);
