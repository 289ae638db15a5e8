<?php

declare(strict_types=1);

namespace Resident\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Laravel\ResidentServiceProvider;
use Resident\Laravel\ResidentStore;

/** The driver as an application gets it: config/cache.php and the service provider. */
final class ServiceProviderTest extends TestCase
{
    public function testTheProviderRegistersTheDriver(): void
    {
        $app = $this->application();
        (new ResidentServiceProvider($app))->register();

        $cache = $app->make('cache')->store();
        self::assertInstanceOf(ResidentStore::class, $cache->getStore());
        $cache->put('k', 'v', 60);
        self::assertSame('v', Cache::pool('test-laravel')->fetch('laravel_cache:k'));
        self::assertSame('own_prefix:', $app->make('cache')->store('prefixed')->getStore()->getPrefix());
    }

    public function testTheProviderAlsoWorksWhenTheManagerAlreadyExists(): void
    {
        $app = $this->application();
        $app->make('cache');
        (new ResidentServiceProvider($app))->register();
        self::assertInstanceOf(ResidentStore::class, $app->make('cache')->store()->getStore());
    }

    private function application(): Container
    {
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 'resident',
            'prefix' => 'laravel_cache',
            'stores' => [
                'resident' => ['driver' => 'resident', 'pool' => 'test-laravel'],
                'prefixed' => ['driver' => 'resident', 'pool' => 'test-laravel', 'prefix' => 'own_prefix'],
            ],
        ]]));
        $app->singleton('cache', static fn ($app) => new CacheManager($app));

        return $app;
    }
}
