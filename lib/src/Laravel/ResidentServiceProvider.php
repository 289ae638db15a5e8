<?php

declare(strict_types=1);

namespace Resident\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Registers the "resident" cache driver. With it, config/cache.php takes:
 *
 *     'stores' => ['resident' => ['driver' => 'resident', 'pool' => 'laravel']],
 *
 * ('prefix' defaults to cache.prefix, as for Laravel's own stores).
 */
final class ResidentServiceProvider extends ServiceProvider
{
    public function register(): void
    {
        // Whenever the cache manager is made, before any store is resolved.
        $this->app->afterResolving('cache', static function (CacheManager $cache): void {
            self::extend($cache);
        });
        if ($this->app->resolved('cache')) {
            self::extend($this->app->make('cache'));
        }
    }

    public static function extend(CacheManager $cache): void
    {
        // Not static: extend() binds the closure to the manager, which is $this in it.
        $cache->extend('resident', fn ($app, array $config) => $this->repository(
            new ResidentStore(
                $config['pool'] ?? 'laravel',
                (string) ($config['prefix'] ?? $app['config']['cache.prefix'] ?? ''),
                // The application's log hears why a write failed (a full pool).
                $app->bound('log') ? $app->make('log') : null,
            ),
        ));
    }
}
