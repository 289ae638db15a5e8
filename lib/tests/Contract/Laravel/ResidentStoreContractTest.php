<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Laravel;

use Illuminate\Contracts\Cache\Store;
use Resident\Cache;
use Resident\Laravel\ResidentStore;

/** The Laravel store contract over Resident\Laravel\ResidentStore. */
final class ResidentStoreContractTest extends StoreContract
{
    protected function createStore(): Store
    {
        return new ResidentStore(Cache::pool('contract-laravel'), 'app');
    }
}
