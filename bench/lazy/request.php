<?php
/*
 * One php-cgi request of bench/lazy/run.php: the first stores the booted
 * app; every request then fetches it and serves "/" with it, by mode
 * (LAZY_BENCH_MODE; run.php sets resident.lazy_objects for the lazy ones):
 *   eager, lazy              fetch, then serve "/" (uses 10 of the 45 objects)
 *   eager-fetch, lazy-fetch  fetch only, use nothing
 *   none                     fetch nothing, build nothing
 * Every mode asks exists() once, as the first request's store needs, so
 * that the difference to "none" is the fetch and what follows from it.
 * Prints "ok", the body and the nanoseconds the fetch and the use took.
 */
require __DIR__ . '/app.php';
// Padded with '_' to one length by run.php.
$mode = rtrim((string)getenv('LAZY_BENCH_MODE'), '_');
$c = Resident\Cache::pool('lazybench');
if (!$c->exists('app') && $mode !== 'none') {
    $c->store('app', Bench\Lazy\boot());
}
$t = hrtime(true);
$app = match ($mode) {
    'eager', 'lazy', 'eager-fetch', 'lazy-fetch' => $c->fetch('app'),
    'none' => null,
};
$body = $mode === 'eager' || $mode === 'lazy' ? $app->handle('GET', '/')->body : 'Hello world! (App\Actions\Hello)';
$ns = hrtime(true) - $t;
echo "ok $body $ns\n";
if (getenv('LAZY_BENCH_COUNT')) {
    // Asked by a run of its own, outside the measured ones: the objects
    // this request made as shells and filled, so far.
    $s = Resident\Cache::status()['request_over_static'];
    echo "objects {$s['shells_this_request']} {$s['shells_filled_this_request']}\n";
}
