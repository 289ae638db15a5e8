<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tests\Support\RecordingLogger;
use Resident\Tests\Tiered\Servers\RedisServer;
use Resident\Tiered\Payload;
use Resident\Tiered\SharedTierException;

/**
 * What callers and the listener see when Redis goes away, hangs, and comes
 * back, in one long-running process (a CLI worker, a queue consumer).
 * OutageTest does the same with four processes under load.
 */
final class RedisFailureTest extends TestCase
{
    use TwoHosts;

    /** Seconds the clients' own timeouts allow: what a call without a deadline of its own would wait. */
    private const CLIENT_TIMEOUT = 5.0;

    /** The deadline the test of a hung Redis gives Tiered (its default). */
    private const DEADLINE = 0.1;

    /**
     * Seconds a call may spend asleep beyond its deadline: the time
     * measured is asleep only (BlockedTime: not running, not waiting for a
     * CPU), which leaves waits the deadline bounds plus page faults and
     * lock waits of microseconds. A call that waited on the client's own
     * timeout would be asleep CLIENT_TIMEOUT (5 s).
     */
    private const TOLERANCE = 0.05;

    private RedisServer $server;

    protected function setUp(): void
    {
        $this->server = new RedisServer();
    }

    protected function tearDown(): void
    {
        $this->server->stop();
    }

    private function client(): \Redis
    {
        $redis = new \Redis();
        $redis->connect('127.0.0.1', $this->server->port, self::CLIENT_TIMEOUT, null, 0, self::CLIENT_TIMEOUT);

        return $redis;
    }

    public function testWithRedisDownLocalCopiesAreServedWritesFailAndTheBreakerOpens(): void
    {
        $errors = [];
        $logger = new RecordingLogger();
        // A cool-down longer than the test: no probe comes between the calls below.
        $a = self::host('tiered-a', $this->client(), onError: function (SharedTierException $e) use (&$errors): void {
            $errors[] = $e->getMessage();
        }, logger: $logger, breakerCooldown: 600.0);
        $a->set('k', 'v');
        $this->server->kill();

        // A fresh local copy at the generation the host knows needs nothing of Redis.
        self::assertSame('v', $a->get('k'));
        self::assertSame('default', $a->get('absent', 'default'));
        self::assertSame('computed', $a->remember('other', fn () => 'computed'));
        // Three failures in a row (the two reads, remember()'s write): the breaker is open.
        self::assertTrue($a->breaker()->isOpen());
        self::assertCount(3, $errors);
        self::assertStringStartsWith('Redis: ', $errors[0]);
        self::assertStringContainsString('the shared tier failed 3 time(s) in a row', $logger->at('error')[0]);

        // While it is open, Redis is not asked: writes fail at once, and
        // what this host wrote is served as a stale copy.
        self::assertFalse($a->set('k', 'v2'));
        self::assertSame('v2', $a->get('k', 'unknown'));
        self::assertSame('computed', $a->get('other'));
        self::assertFalse($a->delete('k'));
        self::assertSame('unknown', $a->get('k', 'unknown'), 'a delete drops the copy even when it fails');
        self::assertFalse($a->clear());
        self::assertCount(3, $errors, 'skipped calls are no new failures');
        self::assertSame(['local_hits' => 1, 'stale_hits' => 2, 'shared_hits' => 0, 'misses' => 3, 'writes' => 1, 'errors' => 3, 'skipped' => 6],
            $a->stats());
    }

    public function testALongRunningProcessWritesThroughAgainOnceRedisIsBack(): void
    {
        $logger = new RecordingLogger();
        $a = self::host('tiered-a', $this->client(), logger: $logger);
        self::assertTrue($a->set('k', 'v1'));
        $this->server->kill();
        self::assertFalse($a->set('k', 'v2'));
        $this->server->start();

        // The same object, the same client: phpredis alone would say "went away" from now on.
        $until = microtime(true) + 5.0;
        while (!($written = $a->set('k', 'v3')) && microtime(true) < $until) {
            usleep(20_000);
        }
        self::assertTrue($written, 'never wrote through again: ' . implode(' | ', $logger->at('warning')));
        // In Redis, under the generation this host knows (the restarted Redis has lost them all: the listener would resync).
        $stored = $this->client()->keys('resident:catalog:*:k');
        self::assertCount(1, $stored);
        self::assertSame('v3', (new Payload())->decode($this->client()->get($stored[0]))[0]);
    }

    public function testAFunctionThatConnectsIsCalledAgainUntilRedisIsUp(): void
    {
        $port = $this->server->port;
        $this->server->kill();
        $connects = 0;
        $a = self::host('tiered-a', function () use ($port, &$connects): \Redis {
            $connects++;
            $redis = new \Redis();
            $redis->connect('127.0.0.1', $port, 1.0);

            return $redis;
        });
        self::assertSame('default', $a->get('k', 'default'));
        self::assertFalse($a->set('k', 'v'));
        $this->server->start();
        $until = microtime(true) + 5.0;
        while (!($written = $a->set('k', 'v')) && microtime(true) < $until) {
            usleep(20_000);
        }
        self::assertTrue($written);
        self::assertGreaterThanOrEqual(3, $connects);
    }

    public function testATieredOverAClientThatNeverConnectedMissesAndFails(): void
    {
        $this->server->kill();
        $redis = new \Redis();
        try {
            $redis->connect('127.0.0.1', $this->server->port, 0.5);
            self::fail('connected to a stopped Redis');
        } catch (\RedisException) {
            // What an application sees when Redis is down as the request starts.
        }
        $errors = [];
        $a = self::host('tiered-a', $redis, onError: function (SharedTierException $e) use (&$errors): void {
            $errors[] = $e->getMessage();
        });
        self::assertSame('default', $a->get('k', 'default'));
        self::assertFalse($a->set('k', 'v'));
        self::assertCount(2, $errors);
        // The first command finds the connection gone; reconnecting needs to know where to.
        self::assertStringContainsString('give Tiered a function that connects', $errors[1]);
    }

    public function testAHungRedisCostsACallAtMostTheDeadlineThenNothing(): void
    {
        // A cool-down longer than the test: the calls after the third are skipped, not probes.
        $a = self::host('tiered-a', $this->client(), breakerCooldown: 600.0, deadline: self::DEADLINE);
        $a->set('hot', 'local copy');
        $this->server->pause();
        try {
            $blocked = [];
            $results = [];
            foreach (['absent-1', 'absent-2', 'absent-3', 'absent-4', 'absent-5'] as $key) {
                [$results[], $blocked[]] = BlockedTime::of(fn () => $a->get($key, 'default'));
                [$hot] = BlockedTime::of(fn () => $a->get('hot'));
                self::assertSame('local copy', $hot, 'local hits are served throughout');
            }
            [$written, $blocked[]] = BlockedTime::of(fn () => $a->set('hot', 'new'));
        } finally {
            $this->server->resume();
        }
        self::assertSame(array_fill(0, 5, 'default'), $results);
        self::assertFalse($written);
        foreach ($blocked as $i => $seconds) {
            self::assertLessThanOrEqual(self::DEADLINE + self::TOLERANCE, $seconds, "call $i was asleep {$seconds} s");
        }
        // The first three failed (each on its deadline); the breaker spared the others any wait.
        self::assertSame(3, $a->stats()['errors']);
        self::assertSame(3, $a->stats()['skipped']);
        self::assertTrue($a->breaker()->isOpen());
    }

    public function testRememberServesTheStaleCopyWhileRedisIsDownLongerThanTheLocalTtl(): void
    {
        $a = self::host('tiered-a', $this->client(), localTtl: 1);
        $computed = 0;
        $compute = function () use (&$computed): string {
            return 'computed ' . ++$computed;
        };
        self::assertSame('computed 1', $a->remember('k', $compute));
        $this->server->kill();
        self::waitPast(1);
        for ($i = 0; $i < 5; $i++) {
            self::assertSame('computed 1', $a->remember('k', $compute));
        }
        self::assertSame(1, $computed);
        self::assertSame(5, $a->stats()['stale_hits']);
        // A value computed during the outage is kept the same way.
        self::assertSame('computed 2', $a->remember('new', $compute));
        self::assertSame('computed 2', $a->remember('new', $compute));
        self::assertSame(2, $computed);
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
        self::assertStringStartsWith('lost the connection to tcp://127.0.0.1:', end($lines));
        $this->server->start();
        // Written while B's listener was away: it can only learn of it by starting afresh.
        $a = self::host('tiered-a', $this->server->client());
        $a->set('k', 'v2');
        $generation = $a->withNamespace('other')->clear();

        $listenerB->step(0.2);
        self::assertSame(2, $listenerB->counts()['connects']);
        self::assertSame('v2', $b->get('k'));
        self::assertSame($generation, $b->localTier()->generation('other', false)[0]);
        self::assertMatchesRegularExpression('/^connected again: subscribed to resident:invalidations on \S+ after \d+\.\d s without; '
            . 'local tier cleared; 2 namespace generation\(s\) resynced$/', end($lines));
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
        self::assertStringStartsWith('lost the connection', $lines[1]);
        self::assertStringContainsString('reconnecting in 0.1 s (without Redis for ', $lines[2]);
        self::assertStringContainsString('reconnecting in 0.2 s (without Redis for ', $lines[3]);
    }

    public function testTheListenerGivesAHungRedisUpSaysSoAndComesBack(): void
    {
        $b = self::host('tiered-b', $this->server->client());
        $lines = [];
        $log = function (string $line) use (&$lines): void {
            $lines[] = sprintf('%.2f %s', microtime(true), $line);
        };
        $address = 'tcp://127.0.0.1:' . $this->server->port;
        // Heartbeat every 0.2 s, given up after 0.6 s of silence; commands and SUBSCRIBE wait 0.3 s.
        $listener = new \Resident\Tiered\Invalidator($b->localTier(), $b->sharedTier(), fn () => new \Resident\Tiered\RespSubscriber($address, timeout: 0.3),
            $log, commandTimeout: 0.3, heartbeat: 0.2, heartbeatTimeout: 0.6);
        $listener->connect();
        $this->server->pause();
        $pausedAt = microtime(true);
        try {
            $until = microtime(true) + 3.0;
            $listener->run(fn (): bool => microtime(true) < $until);
        } finally {
            $this->server->resume();
        }
        $resumedAt = microtime(true);
        $until = microtime(true) + 5.0;
        $listener->run(fn () => $listener->counts()['connects'] < 2 && microtime(true) < $until);

        $text = implode("\n", $lines);
        self::assertMatchesRegularExpression('/lost the connection to \S+: Redis: no answer from \S+ for \d+\.\d s/', $text);
        self::assertGreaterThanOrEqual(2, $listener->counts()['errors'], "retries while Redis hung:\n$text");
        self::assertStringContainsString('connected again: subscribed to', end($lines));
        self::assertSame(2, $listener->counts()['connects']);
        // Lines came while Redis hung: none of its waits is unbounded.
        $during = array_filter($lines, static fn (string $l): bool => (float) $l > $pausedAt && (float) $l < $resumedAt);
        self::assertGreaterThanOrEqual(2, \count($during), "lines while Redis hung:\n$text");
    }
}
