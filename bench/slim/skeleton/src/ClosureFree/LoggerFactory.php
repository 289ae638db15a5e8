<?php

declare(strict_types=1);

namespace App\ClosureFree;

use App\Application\Settings\SettingsInterface;
use Monolog\Handler\StreamHandler;
use Monolog\Logger;
use Monolog\Processor\UidProcessor;
use Psr\Container\ContainerInterface;
use Psr\Log\LoggerInterface;

/** The logger definition of app/dependencies.php, as a method (app-cf/). */
final class LoggerFactory
{
    public function create(ContainerInterface $c): LoggerInterface
    {
        $loggerSettings = $c->get(SettingsInterface::class)->get('logger');
        $logger = new Logger($loggerSettings['name']);
        $logger->pushProcessor(new UidProcessor());
        $logger->pushHandler(new StreamHandler($loggerSettings['path'], $loggerSettings['level']));
        return $logger;
    }
}
