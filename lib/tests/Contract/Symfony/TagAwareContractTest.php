<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Symfony;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;

/** The PSR-6, Symfony adapter and tag-aware contracts over TagAwareAdapter(ResidentAdapter). */
final class TagAwareContractTest extends AdapterContract
{
    use TagAwareContract;

    protected function createPool(int $defaultLifetime = 0): CacheItemPoolInterface
    {
        return new TagAwareAdapter(new ResidentAdapter('tagged', $defaultLifetime, null, 'contract-symfony'));
    }
}
