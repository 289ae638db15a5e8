<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * The counters info() reports. The polyfill counts what this process did
 * (the extension counts for the whole segment).
 *
 * @internal
 */
final class Statistics
{
    private const ZERO = ['hits' => 0, 'misses' => 0, 'stores' => 0, 'deletes' => 0, 'evictions' => 0, 'expirations' => 0];

    /** @var array<string, array<string, int>> */
    private static array $pools = [];

    public static function hit(string $pool, int $count = 1): void
    {
        self::add($pool, 'hits', $count);
    }

    public static function miss(string $pool, int $count = 1): void
    {
        self::add($pool, 'misses', $count);
    }

    public static function stored(string $pool, int $count = 1): void
    {
        self::add($pool, 'stores', $count);
    }

    public static function deleted(string $pool, int $count = 1): void
    {
        self::add($pool, 'deletes', $count);
    }

    public static function expired(string $pool): void
    {
        self::add($pool, 'expirations', 1);
    }

    /** @return array<string, int> */
    public static function of(string $pool): array
    {
        return self::$pools[$pool] ?? self::ZERO;
    }

    /** @return array<string, int> the counters of every pool added up */
    public static function total(): array
    {
        $total = self::ZERO;
        foreach (self::$pools as $counters) {
            foreach ($counters as $name => $value) {
                $total[$name] += $value;
            }
        }

        return $total;
    }

    private static function add(string $pool, string $counter, int $count): void
    {
        self::$pools[$pool] ??= self::ZERO;
        self::$pools[$pool][$counter] += $count;
    }
}
