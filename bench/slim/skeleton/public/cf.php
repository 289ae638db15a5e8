<?php

declare(strict_types=1);

// A control for kept.php: its closure-free app (app-cf/), booted by every request.
require __DIR__ . '/../vendor/autoload.php';

$app = (require __DIR__ . '/../app/boot.php')(__DIR__ . '/../app-cf');
(require __DIR__ . '/../app/serve.php')($app);
