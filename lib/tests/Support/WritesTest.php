<?php

declare(strict_types=1);

namespace Resident\Tests\Support;

use PHPUnit\Framework\TestCase;
use Resident\Cache;
use Resident\Psr16Cache;
use Resident\Psr6\CacheItemPool;

/**
 * A write the pool cannot take is a failed write (false) for the adapters,
 * and what the extension says of it reaches the caller: its logger, or
 * PHP's warning without one. A pinned pool (never evicted) fills up.
 */
final class WritesTest extends TestCase
{
    private Cache $pool;

    protected function setUp(): void
    {
        if (!\extension_loaded('resident')) {
            self::markTestSkipped('the polyfill warns of nothing: APCu and the array fail silently');
        }
        $this->pool = Cache::pool('test-full', pinned: true);
    }

    protected function tearDown(): void
    {
        if (isset($this->pool)) {
            $this->pool->clear();
        }
    }

    /** Fills the pinned pool until a store fails; returns the key that did not fit. */
    private function fill(): string
    {
        $block = str_repeat('x', 1 << 20);
        for ($i = 0; $i < 100_000; $i++) {
            if (!@$this->pool->store("fill-$i", $block)) {
                return "fill-$i";
            }
        }
        self::fail('the pinned pool never filled');
    }

    public function testAFullPoolIsAFailedWriteTheLoggerHearsOf(): void
    {
        $this->fill();
        $logger = new RecordingLogger();
        $cache = new Psr16Cache($this->pool, logger: $logger);
        self::assertFalse($cache->set('one-more', str_repeat('y', 1 << 20)));
        $pool = new CacheItemPool($this->pool, logger: $logger);
        self::assertFalse($pool->save($pool->getItem('and-another')->set(str_repeat('z', 1 << 20))));
        $warnings = $logger->at('warning');
        self::assertCount(2, $warnings);
        self::assertStringContainsString('Pinned pool "test-full" is full: no room for key "one-more"', $warnings[0]);
        self::assertStringContainsString('no room for key "and-another"', $warnings[1]);
    }

    public function testWithoutALoggerItIsPhpsWarning(): void
    {
        $this->fill();
        $cache = new Psr16Cache($this->pool);
        $heard = [];
        set_error_handler(static function (int $level, string $message) use (&$heard): bool {
            $heard[] = [$level, $message];

            return true;
        });
        try {
            self::assertFalse($cache->set('one-more', str_repeat('y', 1 << 20)));
        } finally {
            restore_error_handler();
        }
        self::assertCount(1, $heard);
        self::assertSame(\E_USER_WARNING, $heard[0][0]);
        self::assertStringContainsString('Pinned pool "test-full" is full: no room for key "one-more"', $heard[0][1]);
    }
}
