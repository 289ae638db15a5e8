<?php

declare(strict_types=1);

// In an application: require __DIR__ . '/vendor/autoload.php';
require __DIR__ . '/../tests/autoload.php';
