<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;

/** The PSR-6 and Symfony adapter contracts over Resident\Symfony\ResidentAdapter. */
final class ResidentAdapterContractTest extends AdapterContract
{
    protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface
    {
        return new ResidentAdapter('contract', $defaultLifetime, null, 'contract-symfony');
    }
}
