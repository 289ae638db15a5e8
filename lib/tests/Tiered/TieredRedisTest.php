<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Tiered\Servers\RedisServer;
use Resident\Tiered;
use Resident\Tests\Support\RecordingLogger;
use Resident\Tiered\LocalTier;
use Resident\Tiered\PayloadRefused;
use Resident\Tiered\SharedTierException;

/**
 * Resident\Tiered over one redis-server: where reads are served from,
 * writes and deletes reaching another host through its listener,
 * namespace generations, the local TTL as the bound when no listener runs.
 */
final class TieredRedisTest extends TestCase
{
    use TwoHosts;

    private static RedisServer $server;
    private \Redis $redis;

    public static function setUpBeforeClass(): void
    {
        self::$server = new RedisServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server->stop();
    }

    protected function setUp(): void
    {
        $this->redis = self::$server->client();
        $this->redis->flushAll();
    }

    private function address(): string
    {
        return 'tcp://127.0.0.1:' . self::$server->port;
    }

    public function testReadsTryTheLocalTierThenRedisThenCompute(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        $computed = 0;
        $compute = function () use (&$computed): array {
            $computed++;

            return ['price' => 19.99];
        };

        self::assertSame(['price' => 19.99], $a->remember('p42', $compute, 60));
        self::assertSame(['price' => 19.99], $a->remember('p42', $compute, 60));
        self::assertSame(['price' => 19.99], $b->remember('p42', $compute, 60));
        self::assertSame(['price' => 19.99], $b->get('p42'));
        self::assertSame(1, $computed);
        self::assertSame(['local_hits' => 1, 'stale_hits' => 0, 'shared_hits' => 0, 'misses' => 1, 'writes' => 1, 'errors' => 0, 'skipped' => 0], $a->stats());
        self::assertSame(['local_hits' => 1, 'stale_hits' => 0, 'shared_hits' => 1, 'misses' => 0, 'writes' => 0, 'errors' => 0, 'skipped' => 0], $b->stats());
        self::assertGreaterThan(0, $this->redis->ttl(self::redisKey($this->redis, 'catalog', 'p42')));
    }

    public function testNullAndFalseAreValuesAndAMissIsTheDefault(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        self::assertTrue($a->set('null', null));
        self::assertTrue($a->set('false', false));
        self::assertNull($b->get('null', 'default'));
        self::assertFalse($b->get('false', 'default'));
        self::assertTrue($b->has('null'));
        self::assertSame('default', $b->get('absent', 'default'));
        self::assertFalse($b->has('absent'));
    }

    public function testAWriteOnOneHostReachesTheOtherThroughItsListener(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        $listenerB = self::listener($b, $this->address());

        $a->set('greeting', 'hello');
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertSame('hello', $b->get('greeting'));
        $a->set('greeting', 'bonjour');
        // B keeps serving its copy until its listener hears of the write.
        self::assertSame('hello', $b->get('greeting'));
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertSame('bonjour', $b->get('greeting'));

        $a->delete('greeting');
        self::assertSame('bonjour', $b->get('greeting'));
        self::assertSame(1, $listenerB->step(2.0, 1));
        self::assertSame('gone', $b->get('greeting', 'gone'));
        self::assertSame(['connects' => 1, 'keys' => 3, 'generations' => 0, 'ignored' => 0, 'errors' => 0], $listenerB->counts());
    }

    public function testAWriterSeesItsOwnWriteAtOnce(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $a->set('k', 1);
        self::assertSame(1, $a->get('k'));
        $a->set('k', 2);
        self::assertSame(2, $a->get('k'));
        $a->delete('k');
        self::assertNull($a->get('k'));
        self::assertSame(0, $a->stats()['shared_hits']);
    }

    public function testClearDropsTheNamespaceOnEveryHostWithOneMessage(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        $otherB = $b->withNamespace('users');
        $listenerB = self::listener($b, $this->address());
        foreach (['k1', 'k2', 'k3'] as $key) {
            $a->set($key, "v-$key");
            self::assertSame("v-$key", $b->get($key));
        }
        $otherB->set('u1', 'Ann');
        self::assertSame(4, $listenerB->step(2.0, 4));
        self::assertSame('v-k1', $b->get('k1'));

        $generation = $a->clear();
        self::assertIsInt($generation);
        self::assertSame('gone', $a->get('k1', 'gone'));
        self::assertSame(1, $listenerB->step(2.0, 1));
        foreach (['k1', 'k2', 'k3'] as $key) {
            self::assertSame('gone', $b->get($key, 'gone'));
        }
        self::assertSame('Ann', $otherB->get('u1'));
        self::assertSame($generation, (int) $this->redis->hGet('resident:generations', 'catalog'));
        self::assertSame(1, $listenerB->counts()['generations']);
        // The old generation's keys are unreachable, not deleted: they expire in Redis.
        self::assertSame(3, \count($this->redis->keys('resident:catalog:*')));
    }

    public function testWithoutAListenerLocalCopiesLiveAtMostTheLocalTtl(): void
    {
        $a = self::host('tiered-a', $this->redis, localTtl: 1);
        $b = self::host('tiered-b', $this->redis, localTtl: 1);
        $a->set('k', 'v1');
        self::assertSame('v1', $b->get('k'));
        $a->set('k', 'v2');
        $a->withNamespace('other')->set('n', 'old');
        self::assertSame('old', $b->withNamespace('other')->get('n'));
        $a->withNamespace('other')->clear();
        self::assertSame('v1', $b->get('k'));
        self::assertSame('old', $b->withNamespace('other')->get('n'));
        self::waitPast(1);
        // The copy and the namespace's generation both expired: B asks Redis.
        self::assertSame('v2', $b->get('k'));
        self::assertNull($b->withNamespace('other')->get('n'));
    }

    public function testTheListenerKeepsGenerationsAliveSoReadsDoNotAskRedis(): void
    {
        $b = self::host('tiered-b', $this->redis, localTtl: 1);
        $b->set('k', 'v');
        $listenerB = self::listener($b, $this->address());
        $listenerB->step(1.5);
        self::assertNotNull($b->localTier()->generation('catalog', false)[0]);
        $this->redis->del('resident:generations');
        // Redis has forgotten the generation; the host still knows it and serves its copy.
        self::assertSame('v', $b->get('k'));
    }

    public function testAPayloadPlantedInRedisIsRefusedNotInstantiated(): void
    {
        $errors = [];
        $logger = new RecordingLogger();
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis, onError: function (SharedTierException $e) use (&$errors): void {
            $errors[] = $e;
        }, logger: $logger);
        $a->set('k', 'genuine');
        [$stored] = $this->redis->keys('resident:catalog:*:k');
        Planted::$madeAlive = 0;

        // Someone who can write to Redis replaces the value: in the format this
        // library used before (a bare serialize()), then in the current one with
        // a checksum they computed themselves (there is no secret here).
        $header = "RT\x01\x01";
        $body = pack('J', 0) . serialize([new Planted()]);
        foreach (['bare serialize()', 'forged checksum'] as $i => $format) {
            if ($i === 0) {
                $this->redis->set($stored, serialize([new Planted(), 0]));
            } else {
                $this->redis->set($stored, $header . hash('xxh128', $header . $body, true) . $body);
            }
            gc_collect_cycles();
            Planted::$madeAlive = 0;
            self::assertSame('refused', $b->get('k', 'refused'), $format);
            gc_collect_cycles();
            self::assertSame(0, Planted::$madeAlive, "$format: no object of the planted class came to life");
        }
        self::assertCount(1, $errors, 'the bare serialize() is no payload (a miss); the forged one is refused');
        self::assertInstanceOf(PayloadRefused::class, $errors[0]);
        self::assertSame(['Resident\Tiered: refused a value holding an object of class ' . Planted::class . ', which is not among the allowed classes (none)'],
            $logger->at('error'));
        self::assertFalse($b->breaker()->isOpen(), 'a refused payload is no failure of Redis');
    }

    public function testAFillThatRacedAnInvalidationIsNotKept(): void
    {
        $b = self::host('tiered-b', $this->redis);
        $local = $b->localTier();
        $sequence = $local->sequence('catalog', 'k');
        // The listener drops the key after B read the old value from Redis but before B keeps it.
        $local->forget('catalog', 'k');
        $local->fill('catalog', 'k', 1, 'old', 0, $sequence);
        self::assertNull($local->read('catalog', 'k', false)[0]);

        $local->fill('catalog', 'k', 1, 'new', 0, $local->sequence('catalog', 'k'));
        $entry = $local->read('catalog', 'k', false)[0];
        self::assertSame([1, 'new', 0], \array_slice($entry, 0, 3));
        self::assertTrue(LocalTier::fresh($entry));
    }

    public function testAFillThatRacedTheListenersClearIsNotKept(): void
    {
        $b = self::host('tiered-b', $this->redis);
        $local = $b->localTier();
        foreach ([1, 2] as $round) {
            $sequence = $local->sequence('catalog', 'k');
            // The listener reconnects (and clears everything, counters included) while B reads Redis.
            $local->clear();
            $local->fill('catalog', 'k', 1, 'old', 0, $sequence);
            self::assertNull($local->read('catalog', 'k', false)[0], "round $round");
        }
    }

    public function testGenerationsOnlyMoveForward(): void
    {
        $local = self::host('tiered-b', $this->redis)->localTier();
        $local->raiseGeneration('ns', 10, 0);
        $local->raiseGeneration('ns', 9, 0);
        $local->offerGeneration('ns', 8, 0);
        self::assertSame(10, $local->generation('ns', false)[0]);
        $local->raiseGeneration('ns', 11, 0);
        self::assertSame(11, $local->generation('ns', false)[0]);
    }

    public function testAGenerationLostByRedisRestartsAheadOfTheOldOne(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $old = $a->clear();
        // Generations start at the time in ms: the assumption is fewer bumps than milliseconds.
        usleep(5000);
        $this->redis->flushAll();
        $b = self::host('tiered-b', $this->redis);
        $b->set('k', 'v');
        self::assertGreaterThan($old, (int) $this->redis->hGet('resident:generations', 'catalog'));
    }

    public function testTheSharedTtlBoundsTheLocalCopy(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        $a->set('short', 'v', 1);
        self::assertSame('v', $b->get('short'));
        self::waitPast(1);
        self::assertSame('expired', $b->get('short', 'expired'));
        self::assertSame('expired', $a->get('short', 'expired'));
    }

    public function testAnyKeyTravelsThroughTheChannel(): void
    {
        $a = self::host('tiered-a', $this->redis);
        $b = self::host('tiered-b', $this->redis);
        $listenerB = self::listener($b, $this->address());
        $keys = ["with space", "nul\0byte", "colon:and{braces}", str_repeat('long', 2000), ''];
        foreach ($keys as $i => $key) {
            $a->set($key, $i);
            self::assertSame($i, $b->get($key));
        }
        self::assertSame(\count($keys), $listenerB->step(2.0, \count($keys)));
        foreach ($keys as $i => $key) {
            $a->set($key, -$i - 1);
        }
        self::assertSame(\count($keys), $listenerB->step(2.0, \count($keys)));
        foreach ($keys as $i => $key) {
            self::assertSame(-$i - 1, $b->get($key));
        }
    }

    public function testTheListenerIgnoresWhatIsNotAnInvalidation(): void
    {
        $b = self::host('tiered-b', $this->redis);
        $listenerB = self::listener($b, $this->address());
        $this->redis->publish('resident:invalidations', 'hello');
        $this->redis->publish('resident:invalidations', 'g catalog notanumber');
        self::assertSame(2, $listenerB->step(2.0, 2));
        self::assertSame(2, $listenerB->counts()['ignored']);
    }

    public function testValuesThatCannotBeSerializedAreRefused(): void
    {
        $a = self::host('tiered-a', $this->redis);
        self::assertFalse($a->set('closure', fn () => 1));
        self::assertNull($a->get('closure'));
    }

    public function testNamespacesAreChecked(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        self::host('tiered-a', $this->redis, 'has space');
    }

    public function testAClientThatSerializesIsRefused(): void
    {
        $redis = self::$server->client();
        $redis->setOption(\Redis::OPT_SERIALIZER, \Redis::SERIALIZER_PHP);
        $this->expectException(\InvalidArgumentException::class);
        self::host('tiered-a', $redis);
    }

    public function testAUnixSocketAndAPrefix(): void
    {
        $redis = new \Redis();
        $redis->connect(self::$server->socket());
        $local = \Resident\Cache::pool('tiered-a');
        $a = new Tiered($local, $redis, 'ns', prefix: 'app1:');
        $a->set('k', 'v');
        self::assertSame(['app1:generations', 'app1:ns:' . $redis->hGet('app1:generations', 'ns') . ':k'], self::sorted($redis->keys('*')));
    }

    private static function redisKey(\Redis $redis, string $namespace, string $key): string
    {
        return "resident:$namespace:" . $redis->hGet('resident:generations', $namespace) . ":$key";
    }

    /** @param list<string> $values @return list<string> */
    private static function sorted(array $values): array
    {
        sort($values);

        return $values;
    }
}
