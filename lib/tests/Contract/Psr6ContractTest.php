<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

use Cache\IntegrationTests\CachePoolTest;
use Resident\Psr6\CacheItemPool;

/** php-cache/integration-tests' PSR-6 suite, whole. */
final class Psr6ContractTest extends CachePoolTest
{
    public function createCachePool()
    {
        return new CacheItemPool('test-psr6');
    }
}
