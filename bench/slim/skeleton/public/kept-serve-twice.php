<?php

declare(strict_types=1);

/*
 * A control for the instructions table (bench/slim/bench.php): public/kept.php
 * serving "/" twice with the same app in the same request, the first time
 * into an output buffer that is dropped (headers are sent by neither
 * before the second: both do the whole work). These instructions less
 * kept.php's are what serving "/" costs once the request has run that
 * code already (its run-time caches filled, as in a worker); kept.php's
 * one serve pays for filling them too.
 */
require __DIR__ . '/../vendor/autoload.php';

$front = require __DIR__ . '/../app/kept.php';
$kept = Resident\Cache::pool('slim-bench')->keep('app', $front['build'], $front['reset']);
ob_start();
$front['serve']($kept);
ob_end_clean();
$front['serve']($kept);
