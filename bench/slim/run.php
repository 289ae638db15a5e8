<?php
/*
 * The Slim benchmark (issue 25): bench/slim/skeleton, a Slim 4 app shaped
 * like the official skeleton, through bench/lib/app_bench.php (which says
 * what is measured, and takes --duration, --rounds, --connections, --out,
 * --ext, --callgrind).
 *
 *   php8.2 -n -d extension=posix bench/slim/run.php
 */
$manifest = require __DIR__ . '/bench.php';
require dirname(__DIR__) . '/lib/app_bench.php';
