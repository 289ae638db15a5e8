<?php

declare(strict_types=1);

use App\Application\Settings\Settings;
use App\Application\Settings\SettingsInterface;
use DI\ContainerBuilder;
use Monolog\Logger;

/*
 * app/settings.php without its closure: the same values, built by PHP-DI
 * from a create() definition, which Resident can keep today. This directory
 * (app-cf/) exists only until Resident stores closures: see public/kept.php.
 */
return function (ContainerBuilder $containerBuilder) {
    $containerBuilder->addDefinitions([
        SettingsInterface::class => \DI\create(Settings::class)->constructor([
            'displayErrorDetails' => true,
            'logError' => false,
            'logErrorDetails' => false,
            'logger' => [
                'name' => 'slim-app',
                'path' => 'php://stderr',
                'level' => Logger::DEBUG,
            ],
        ]),
    ]);
};
