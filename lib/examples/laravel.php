<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\Facade;
use Resident\Laravel\ResidentStore;

// What a Laravel application already has: a container, config/cache.php, the Cache facade.
$app = new Container();
Facade::setFacadeApplication($app);
$app->instance('config', new Config(['cache' => [
    'default' => 'resident',
    'prefix' => 'laravel_cache',
    'stores' => [
        'resident' => ['driver' => 'resident', 'pool' => 'laravel'],
    ],
]]));
$app->singleton('cache', fn ($app) => new CacheManager($app));

// In AppServiceProvider::boot() (or list Resident\Laravel\ResidentServiceProvider instead).
Cache::extend('resident', function ($app, array $config) {
    return Cache::repository(new ResidentStore($config['pool'] ?? 'laravel', $config['prefix'] ?? $app['config']['cache.prefix']));
});

Cache::put('greeting', 'hello', 60);
echo Cache::get('greeting'), "\n";
echo Cache::remember('answer', 300, fn () => 42), "\n";
echo Cache::increment('visits'), "\n";

// Atomic locks.
$lock = Cache::lock('import', 10);
var_dump($lock->get());
var_dump(Cache::lock('import', 10)->get());   // someone else: refused
$lock->release();

// Tags.
Cache::tags(['people'])->put('john', 'John', 60);
Cache::tags(['people'])->flush();
var_dump(Cache::tags(['people'])->get('john'));
