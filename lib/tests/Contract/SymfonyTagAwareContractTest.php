<?php

declare(strict_types=1);

namespace Resident\Tests\Contract;

use Psr\Cache\CacheItemPoolInterface;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;
use Symfony\Component\Cache\Tests\Adapter\AdapterTestCase;
use Symfony\Component\Cache\Tests\Adapter\TagAwareTestTrait;

/** Symfony 5.4's AdapterTestCase and TagAwareTestTrait over TagAwareAdapter(ResidentAdapter). */
final class SymfonyTagAwareContractTest extends AdapterTestCase
{
    use TagAwareTestTrait;

    protected $skippedTests = SlowTests::SYMFONY;

    public function createCachePool(int $defaultLifetime = 0, ?string $testMethod = null): CacheItemPoolInterface
    {
        return new TagAwareAdapter(new ResidentAdapter('tagged', $defaultLifetime, null, 'test-symfony'));
    }
}
