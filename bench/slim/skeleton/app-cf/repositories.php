<?php

declare(strict_types=1);

// Holds no closure: the app's own file.
return require __DIR__ . '/../app/repositories.php';
