<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Tests\Adapter\AdapterTestCase;

/** Symfony 5.4's AdapterTestCase (which includes the PSR-6 suite) over the adapter. */
final class SymfonyAdapterContractTest extends AdapterTestCase
{
    protected $skippedTests = SlowTests::SYMFONY;

    public function createCachePool(int $defaultLifetime = 0, ?string $testMethod = null): CacheItemPoolInterface
    {
        return new ResidentAdapter('contract', $defaultLifetime, null, 'test-symfony');
    }
}
