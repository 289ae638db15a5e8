<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Psr6;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Psr6\CacheItemPool;

/** The PSR-6 contract over Resident\Psr6\CacheItemPool. */
final class CacheItemPoolContractTest extends PoolContract
{
    protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface
    {
        return new CacheItemPool('contract-psr6', $defaultLifetime);
    }
}
