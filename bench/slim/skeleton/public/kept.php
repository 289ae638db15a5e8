<?php

declare(strict_types=1);

/*
 * Resident kept-app: the app as written, booted once per deploy by
 * Resident\Cache::keep() with its middleware and handlers (app/kept.php),
 * a fresh copy of it per request.
 */
require __DIR__ . '/../vendor/autoload.php';

$front = require __DIR__ . '/../app/kept.php';
$kept = Resident\Cache::pool('slim-bench')->keep('app', $front['build'], $front['reset']);
$front['serve']($kept);
