<?php

declare(strict_types=1);

namespace Resident\Tests\Contract\Psr16;

use Psr\SimpleCache\CacheInterface;
use Resident\Cache;
use Resident\Psr16Cache;

/** The PSR-16 contract over Resident\Psr16Cache. */
final class Psr16CacheContractTest extends SimpleCacheContract
{
    protected function createCache(): CacheInterface
    {
        return new Psr16Cache(Cache::pool('contract-psr16'));
    }
}
