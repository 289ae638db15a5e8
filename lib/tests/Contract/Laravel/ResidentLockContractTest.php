<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Laravel;

use Illuminate\Contracts\Cache\Store;
use Resident\Cache;
use Resident\Laravel\ResidentStore;

/** The Laravel lock contract over the locks of Resident\Laravel\ResidentStore. */
final class ResidentLockContractTest extends LockContract
{
    protected function createStore(): Store
    {
        return new ResidentStore(Cache::pool('contract-laravel'), 'locks');
    }
}
