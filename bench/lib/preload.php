<?php

declare(strict_types=1);

/*
 * opcache.preload for the app benches (app_bench.php copies it into the
 * app's root): compiles and links once, in the php-fpm master, the files of
 * the classes that requests for "/" use (var/preload-classes.txt, written
 * by the bench from bin/list-classes.php; every front controller's classes
 * together).
 */
require __DIR__ . '/vendor/autoload.php';

foreach (file(__DIR__ . '/var/preload-classes.txt', FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $name) {
    class_exists($name) || interface_exists($name) || trait_exists($name);
}
