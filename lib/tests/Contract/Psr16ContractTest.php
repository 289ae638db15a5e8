<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

use Cache\IntegrationTests\SimpleCacheTest;
use Resident\Cache;
use Resident\Psr16Cache;

/** php-cache/integration-tests' PSR-16 suite, whole. */
final class Psr16ContractTest extends SimpleCacheTest
{
    public function createSimpleCache()
    {
        return new Psr16Cache(Cache::pool('test-psr16'));
    }
}
