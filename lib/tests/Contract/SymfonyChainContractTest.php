<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Component\Cache\Adapter\ChainAdapter;
use Symfony\Component\Cache\Tests\Adapter\AdapterTestCase;

/** Symfony 5.4's AdapterTestCase over ChainAdapter([ArrayAdapter, ResidentAdapter]). */
final class SymfonyChainContractTest extends AdapterTestCase
{
    protected $skippedTests = SlowTests::SYMFONY;

    public function createCachePool(int $defaultLifetime = 0, ?string $testMethod = null): CacheItemPoolInterface
    {
        if ($testMethod === 'testGetMetadata') {
            // ArrayAdapter keeps no metadata: Symfony's ChainAdapterTest chains two
            // metadata-keeping adapters for this test, and so does this one.
            return new ChainAdapter([
                new ResidentAdapter('chained-a', $defaultLifetime, null, 'test-symfony'),
                new ResidentAdapter('chained-b', $defaultLifetime, null, 'test-symfony'),
            ], $defaultLifetime);
        }

        return new ChainAdapter([
            new ArrayAdapter($defaultLifetime),
            new ResidentAdapter('chained', $defaultLifetime, null, 'test-symfony'),
        ], $defaultLifetime);
    }
}
