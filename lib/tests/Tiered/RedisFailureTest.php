<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Tiered\Servers\RedisServer;
use Resident\Tiered\SharedTierException;

/**
 * What callers and the listener see when Redis goes away and comes back.
 */
final class RedisFailureTest extends TestCase
{
    use TwoHosts;

    private RedisServer $server;

    protected function setUp(): void
    {
        $this->server = new RedisServer();
    }

    protected function tearDown(): void
    {
        $this->server->stop();
    }

    public function testWithRedisDownReadsMissWritesFailAndNoCopyIsServed(): void
    {
        $errors = [];
        $a = self::host('tiered-a', $this->server->client(), onError: function (SharedTierException $e) use (&$errors): void {
            $errors[] = $e->getMessage();
        });
        $a->set('k', 'v');
        $this->server->stop(false);

        // A local copy within the local TTL, at the generation the host knows, is served as always.
        self::assertSame('v', $a->get('k'));
        self::assertSame('default', $a->get('absent', 'default'));
        self::assertSame('computed', $a->remember('other', fn () => 'computed'));
        self::assertFalse($a->set('k', 'v2'));
        // The failed write dropped this host's copy: the value in Redis is unknown now.
        self::assertSame('unknown', $a->get('k', 'unknown'));
        self::assertFalse($a->delete('k'));
        self::assertFalse($a->clear());
        // remember() counts twice: its read, then its write.
        self::assertSame(7, $a->stats()['errors']);
        self::assertCount(7, $errors);
        self::assertStringStartsWith('Redis: ', $errors[0]);

        $this->server->start();
        $redis = $this->server->client();
        $a = self::host('tiered-a', $redis);
        self::assertTrue($a->set('k', 'back'));
        self::assertSame('back', $a->get('k'));
    }

    public function testATieredOverAClientThatCouldNotConnectMissesAndFails(): void
    {
        $this->server->stop(false);
        $redis = new \Redis();
        try {
            $redis->connect('127.0.0.1', $this->server->port, 0.5);
            self::fail('connected to a stopped Redis');
        } catch (\RedisException) {
            // What an application sees when Redis is down as the request starts.
        }
        $errors = 0;
        $a = self::host('tiered-a', $redis, onError: function () use (&$errors): void {
            $errors++;
        });
        self::assertSame('default', $a->get('k', 'default'));
        self::assertFalse($a->set('k', 'v'));
        self::assertSame(2, $errors);
    }

    public function testTheListenerReconnectsClearsTheLocalTierAndResyncs(): void
    {
        $a = self::host('tiered-a', $this->server->client());
        $b = self::host('tiered-b', $this->server->client());
        $lines = [];
        $listenerB = self::listener($b, 'tcp://127.0.0.1:' . $this->server->port, function (string $line) use (&$lines): void {
            $lines[] = $line;
        });
        $a->set('k', 'v1');
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertSame('v1', $b->get('k'));

        $this->server->stop(false);
        try {
            $listenerB->step(0.5);
            self::fail('the listener did not notice that Redis went away');
        } catch (SharedTierException $e) {
            self::assertStringContainsString('closed', $e->getMessage());
        }
        $this->server->start();
        // Written while B's listener was away: it can only learn of it by starting afresh.
        $a = self::host('tiered-a', $this->server->client());
        $a->set('k', 'v2');
        $generation = $a->withNamespace('other')->clear();

        $listenerB->step(0.2);
        self::assertSame(2, $listenerB->counts()['connects']);
        self::assertSame('v2', $b->get('k'));
        self::assertSame($generation, $b->localTier()->generation('other', false)[0]);
        self::assertStringContainsString('local tier cleared; 2 namespace generation(s) resynced', end($lines));
    }

    public function testRunBacksOffWhileRedisIsDown(): void
    {
        $b = self::host('tiered-b', $this->server->client());
        $lines = [];
        $listenerB = self::listener($b, 'tcp://127.0.0.1:' . $this->server->port, function (string $line) use (&$lines): void {
            $lines[] = $line;
        });
        $this->server->stop(false);
        $until = microtime(true) + 1.0;
        $listenerB->run(fn () => microtime(true) < $until);
        // The first failure, then connection refusals at 0.1, 0.2, 0.4... s.
        self::assertGreaterThanOrEqual(3, $listenerB->counts()['errors']);
        self::assertLessThanOrEqual(5, $listenerB->counts()['errors']);
        self::assertStringContainsString('reconnecting in 0.1 s', $lines[1]);
        self::assertStringContainsString('reconnecting in 0.2 s', $lines[2]);
    }
}
