<?php

declare(strict_types=1);

// The app as written, booted by every request (plain php-fpm).
require __DIR__ . '/../vendor/autoload.php';

$app = (require __DIR__ . '/../app/boot.php')(__DIR__ . '/../app');
(require __DIR__ . '/../app/serve.php')($app);
