<?php

declare(strict_types=1);

/*
 * A control for the instructions table (bench/slim/bench.php): public/kept.php
 * without serving: the kept app fetched as every kept request fetches it,
 * then only the body. kept.php's instructions less these are what serving
 * "/" costs a request.
 */
require __DIR__ . '/../vendor/autoload.php';

$front = require __DIR__ . '/../app/kept.php';
Resident\Cache::pool('slim-bench')->keep('app', $front['build'], $front['reset']);
echo 'Hello world!';
