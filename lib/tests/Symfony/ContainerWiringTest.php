<?php

declare(strict_types=1);

namespace Resident\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Symfony\ResidentAdapter;
use Symfony\Component\Cache\DependencyInjection\CachePoolPass;
use Symfony\Component\DependencyInjection\ChildDefinition;
use Symfony\Component\DependencyInjection\ContainerBuilder;

/**
 * The services.yaml of README.md, in PHP: an abstract adapter service
 * tagged cache.pool, and a pool made from it as FrameworkBundle makes
 * `framework.cache.pools` entries. Symfony's CachePoolPass must give each
 * pool its own namespace and its default lifetime, through the same
 * constructor arguments as ApcuAdapter's.
 */
final class ContainerWiringTest extends TestCase
{
    protected function setUp(): void
    {
        if (!class_exists(ContainerBuilder::class)) {
            self::markTestSkipped('symfony/dependency-injection is not installed');
        }
    }

    public function testPoolsGetANamespaceAndALifetime(): void
    {
        $container = new ContainerBuilder();
        $container->setParameter('cache.prefix.seed', 'resident-test'); // FrameworkBundle sets it per application
        $container->register('cache.adapter.resident', ResidentAdapter::class)
            ->setAbstract(true)
            ->setArguments(['', 0, null, 'test-symfony'])
            ->addTag('cache.pool', ['reset' => 'reset']);
        foreach (['catalog.cache' => ['default_lifetime' => 1], 'other.cache' => []] as $id => $attributes) {
            $container->setDefinition($id, new ChildDefinition('cache.adapter.resident'))
                ->setPublic(true)
                ->addTag('cache.pool', $attributes);
        }
        $container->addCompilerPass(new CachePoolPass());
        $container->compile();

        $pool = Cache::pool('test-symfony');
        $pool->clear();
        $catalog = $container->get('catalog.cache');
        $other = $container->get('other.cache');
        self::assertInstanceOf(ResidentAdapter::class, $catalog);
        $catalog->get('k', fn () => 'catalog');
        $other->get('k', fn () => 'other');
        self::assertSame('other', $other->get('k', fn () => 'recomputed'), 'namespaces keep pools apart');
        self::assertCount(2, iterator_to_array($pool->keys()));

        usleep(2_100_000);
        self::assertSame('recomputed', $catalog->get('k', fn () => 'recomputed'), 'default_lifetime: 1 reached the adapter');
        self::assertSame('other', $other->get('k', fn () => 'recomputed'));
    }
}
