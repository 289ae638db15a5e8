<?php
/*
 * One php-cgi request of bench/lazy/run.php: the first stores the booted
 * app; every request then fetches it and serves "/" (mode from
 * LAZY_BENCH_MODE: eager, lazy, or none, which builds and fetches nothing;
 * run.php sets resident.lazy_objects for lazy),
 * and prints "ok", the body and the nanoseconds that took.
 */
require __DIR__ . '/app.php';
$mode = getenv('LAZY_BENCH_MODE');
$c = Resident\Cache::pool('lazybench');
if ($mode !== 'none' && !$c->exists('app')) {
    $c->store('app', Bench\Lazy\boot());
}
$t = hrtime(true);
$app = match ($mode) {
    'eager', 'lazy' => $c->fetch('app'),
    'none' => null,
};
$body = $app ? $app->handle('GET', '/')->body : 'Hello world! (App\Actions\Hello)';
$ns = hrtime(true) - $t;
echo "ok $body $ns\n";
