<?php

declare(strict_types=1);

use App\ClosureFree\LoggerFactory;
use DI\ContainerBuilder;
use Psr\Log\LoggerInterface;

// app/dependencies.php with the logger's factory closure as a class method.
return function (ContainerBuilder $containerBuilder) {
    $containerBuilder->addDefinitions([
        LoggerInterface::class => \DI\factory([LoggerFactory::class, 'create']),
    ]);
};
