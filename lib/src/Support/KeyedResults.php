<?php

declare(strict_types=1);

namespace Resident\Support;

/**
 * Results keyed by cache key, as getItems() and getMultiple() return them.
 *
 * A PHP array turns the key "42" into the integer 42, and PSR-6 and PSR-16
 * keys are strings: where a key is such a number, the results come as a
 * generator instead, which keeps every key a string. Otherwise an array,
 * which callers may count, index or pass to array functions.
 */
final class KeyedResults
{
    /**
     * @param list<array{0: string, 1: mixed}> $pairs [key, result] in the order asked, each key once
     * @return iterable<string, mixed>
     */
    public static function of(array $pairs): iterable
    {
        $results = [];
        foreach ($pairs as [$key, $result]) {
            if (\is_int(array_key_first([$key => true]))) {
                return self::generate($pairs);
            }
            $results[$key] = $result;
        }

        return $results;
    }

    /** @param list<array{0: string, 1: mixed}> $pairs */
    private static function generate(array $pairs): \Generator
    {
        foreach ($pairs as [$key, $result]) {
            yield $key => $result;
        }
    }
}
