<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Component\Cache\Adapter\ChainAdapter;

/**
 * The PSR-6 and Symfony adapter contracts over ChainAdapter([ArrayAdapter,
 * ResidentAdapter]): the adapter behind a per-request front, as
 * applications chain it.
 */
final class ChainContractTest extends AdapterContract
{
    /**
     * Tests of what ArrayAdapter does otherwise, where two Resident adapters
     * are chained instead (as Symfony's ChainAdapterTest does for the first):
     * ArrayAdapter keeps no metadata, and keeps a value that failed to
     * unserialize as a hit of null.
     */
    private const NOT_WITH_AN_ARRAY_ADAPTER = [
        'testItemsCarryHowLongTheyTookToComputeAndWhenTheyExpire',
        'testAValueThatFailsToComeBackIsAMiss',
    ];

    protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface
    {
        if (\in_array($this->getName(false), self::NOT_WITH_AN_ARRAY_ADAPTER, true)) {
            return new ChainAdapter([
                new ResidentAdapter('chained-a', $defaultLifetime, null, 'contract-symfony'),
                new ResidentAdapter('chained-b', $defaultLifetime, null, 'contract-symfony'),
            ], $defaultLifetime);
        }

        return new ChainAdapter([new ArrayAdapter($defaultLifetime), new ResidentAdapter('chained', $defaultLifetime, null, 'contract-symfony')], $defaultLifetime);
    }
}
