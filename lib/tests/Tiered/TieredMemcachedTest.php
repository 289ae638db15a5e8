<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Tiered\Servers\MemcachedServer;
use Resident\Tiered\MemcachedTier;
use Resident\Tiered\SharedTierException;

/**
 * Memcached as the shared tier: nothing is pushed; hosts poll namespace
 * generations, and a key written on another host is seen when the local
 * copy expires.
 */
final class TieredMemcachedTest extends TestCase
{
    use TwoHosts;

    private static MemcachedServer $server;
    private \Memcached $memcached;

    public static function setUpBeforeClass(): void
    {
        self::$server = new MemcachedServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server->stop();
    }

    protected function setUp(): void
    {
        $this->memcached = self::$server->client();
        $this->memcached->flush();
    }

    public function testReadsWritesAndDeletes(): void
    {
        $a = self::host('tiered-a', $this->memcached);
        $b = self::host('tiered-b', $this->memcached);
        self::assertSame(['v' => 1], $a->remember('k', fn () => ['v' => 1], 60));
        self::assertSame(['v' => 1], $b->get('k'));
        self::assertSame(['v' => 1], $b->get('k'));
        self::assertSame(['local_hits' => 1, 'stale_hits' => 0, 'shared_hits' => 1, 'misses' => 0, 'writes' => 0, 'errors' => 0, 'skipped' => 0], $b->stats());
        self::assertNull($b->get('absent'));
        self::assertTrue($a->delete('k'));
        self::assertSame('gone', $a->get('k', 'gone'));
        self::assertTrue($a->set('nothing', null));
        self::assertTrue($b->has('nothing'));
    }

    public function testKeysMemcachedCannotTakeAreHashed(): void
    {
        $a = self::host('tiered-a', $this->memcached);
        $b = self::host('tiered-b', $this->memcached);
        $keys = ['with space', "nul\0byte", "line\nfeed", str_repeat('x', 300), '', '#looks-hashed', 'plain:key'];
        foreach ($keys as $i => $key) {
            self::assertTrue($a->set($key, $i));
        }
        foreach ($keys as $i => $key) {
            self::assertSame($i, $b->get($key), json_encode($key));
        }
        $tier = new MemcachedTier($this->memcached);
        self::assertSame('resident:ns:7:plain:key', $tier->key('ns', 7, 'plain:key'));
        self::assertMatchesRegularExpression('/^resident:ns:7:#[0-9a-f]{32}$/', $tier->key('ns', 7, 'with space'));
        self::assertNotSame($tier->key('ns', 7, '#looks-hashed'), 'resident:ns:7:#looks-hashed');
    }

    public function testANamespaceDropReachesOtherHostsWithinThePollInterval(): void
    {
        $a = self::host('tiered-a', $this->memcached, pollMs: 200);
        $b = self::host('tiered-b', $this->memcached, pollMs: 200);
        $a->set('k', 'v');
        self::assertSame('v', $b->get('k'));
        $a->clear();
        self::assertSame('gone', $a->get('k', 'gone'));
        // B polled a moment ago: it serves its copy until the next poll.
        self::assertSame('v', $b->get('k'));
        usleep(250_000);
        self::assertSame('gone', $b->get('k', 'gone'));
    }

    public function testOneWorkerPerHostPollsPerInterval(): void
    {
        $b = self::host('tiered-b', $this->memcached, pollMs: 60_000);
        $b->get('k');
        $local = $b->localTier();
        [$generation, $polledAt] = $local->generation('catalog', true);
        self::assertIsInt($generation);
        self::assertIsInt($polledAt);
        // Within the interval nobody else may claim the poll; with the stamp it read, one may after it.
        self::assertFalse($local->claimPoll('catalog', null, $polledAt + 1));
        self::assertFalse($local->claimPoll('catalog', $polledAt - 1, $polledAt + 1));
        self::assertTrue($local->claimPoll('catalog', $polledAt, $polledAt + 60_000));
        self::assertFalse($local->claimPoll('catalog', $polledAt, $polledAt + 60_001));
    }

    public function testAWriteReachesOtherHostsWhenTheirCopyExpires(): void
    {
        $a = self::host('tiered-a', $this->memcached, localTtl: 1);
        $b = self::host('tiered-b', $this->memcached, localTtl: 1);
        $a->set('k', 'v1');
        self::assertSame('v1', $b->get('k'));
        $a->set('k', 'v2');
        self::assertSame('v2', $a->get('k'));
        self::assertSame('v1', $b->get('k'));
        self::waitPast(1);
        self::assertSame('v2', $b->get('k'));
    }

    public function testWithMemcachedDownLocalCopiesAreServedAndWritesFail(): void
    {
        $server = new MemcachedServer();
        $errors = 0;
        // A poll interval longer than the test: only the reads that must reach Memcached fail.
        $a = self::host('tiered-a', $server->client(), pollMs: 60_000, onError: function (SharedTierException $e) use (&$errors): void {
            $errors++;
        });
        self::assertTrue($a->set('k', 'v'));
        $server->stop();
        self::assertSame('v', $a->get('k'));
        self::assertSame('default', $a->get('absent', 'default'));
        self::assertFalse($a->set('k', 'v2'));
        // Kept as a stale copy, served while Memcached cannot be asked (this read is the third failure: the breaker opens).
        self::assertSame('v2', $a->get('k', 'unknown'));
        self::assertFalse($a->clear(), 'skipped: the breaker is open');
        self::assertSame(3, $errors);
        self::assertSame(['local_hits' => 1, 'stale_hits' => 1, 'shared_hits' => 0, 'misses' => 1, 'writes' => 1, 'errors' => 3, 'skipped' => 1], $a->stats());
    }
}
