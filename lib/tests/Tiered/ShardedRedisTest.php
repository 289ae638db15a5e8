<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Tiered\Servers\RedisServer;
use Resident\Tiered\RedisTier;

/**
 * The shared tier spread over several Redis servers: phpredis's RedisArray
 * (consistent hashing on the client) and a Redis Cluster.
 */
final class ShardedRedisTest extends TestCase
{
    use TwoHosts;

    /** @var list<RedisServer> */
    private array $servers = [];

    protected function tearDown(): void
    {
        foreach ($this->servers as $server) {
            $server->stop();
        }
    }

    public function testARedisArraySpreadsKeysAndCarriesTheChannelOnOneNode(): void
    {
        $this->servers = [new RedisServer(), new RedisServer()];
        $hosts = array_map(fn (RedisServer $s) => "127.0.0.1:{$s->port}", $this->servers);
        $array = fn () => new \RedisArray($hosts, ['lazy_connect' => true]);
        $a = self::host('tiered-a', $array());
        $b = self::host('tiered-b', $array());
        $tier = $b->sharedTier();
        self::assertInstanceOf(RedisTier::class, $tier);
        $node = $tier->channelNode();
        self::assertContains($node, $hosts);
        $listenerB = self::listener($b, "tcp://$node");

        for ($i = 0; $i < 40; $i++) {
            $a->set("k$i", $i);
            self::assertSame($i, $b->get("k$i"));
        }
        self::assertSame(40, $listenerB->step(2.0, 40));
        foreach ($this->servers as $server) {
            // Consistent hashing put some of the 40 keys on each server.
            self::assertGreaterThan(3, $server->client()->dbSize());
        }
        for ($i = 0; $i < 40; $i++) {
            self::assertSame($i, $b->get("k$i"));
            $a->set("k$i", -$i);
        }
        self::assertSame(40, $listenerB->step(2.0, 40));
        for ($i = 0; $i < 40; $i++) {
            self::assertSame(-$i, $b->get("k$i"));
        }
        $a->clear();
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertNull($b->get('k1'));
    }

    public function testARedisCluster(): void
    {
        $options = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'];
        $this->servers = [new RedisServer($options), new RedisServer($options), new RedisServer($options)];
        $seeds = array_map(fn (RedisServer $s) => "127.0.0.1:{$s->port}", $this->servers);
        exec(implode(' ', array_map('escapeshellarg', array_merge(['/usr/bin/redis-cli', '--cluster', 'create'], $seeds,
            ['--cluster-replicas', '0', '--cluster-yes']))) . ' 2>&1', $output, $status);
        self::assertSame(0, $status, implode("\n", $output));
        $this->waitForTheCluster();

        $cluster = fn () => new \RedisCluster(null, $seeds, 2.0, 2.0);
        $a = self::host('tiered-a', $cluster());
        $b = self::host('tiered-b', $cluster());
        self::assertNull($b->sharedTier()->channelNode());
        // A cluster forwards every message to every node: any node will do for the listener.
        $listenerB = self::listener($b, 'tcp://' . $seeds[2]);

        for ($i = 0; $i < 30; $i++) {
            $a->set("k$i", $i);
            self::assertSame($i, $b->get("k$i"));
        }
        self::assertSame(30, $listenerB->step(2.0, 30));
        foreach ($this->servers as $server) {
            self::assertGreaterThan(0, $server->client()->dbSize());
        }
        $a->set('k1', 'changed');
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertSame('changed', $b->get('k1'));
        $a->clear();
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertNull($b->get('k1'));
    }

    private function waitForTheCluster(): void
    {
        for ($i = 0; $i < 100; $i++) {
            $ok = 0;
            foreach ($this->servers as $server) {
                $info = (string) $server->client()->rawCommand('CLUSTER', 'INFO');
                $ok += str_contains($info, 'cluster_state:ok') ? 1 : 0;
            }
            if ($ok === \count($this->servers)) {
                return;
            }
            usleep(50000);
        }
        self::fail('the cluster did not reach cluster_state:ok');
    }
}
