<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * Where a namespace's generation starts.
 *
 * Hosts keep the generation they last saw and only ever move it forward. If
 * the shared tier loses its generations (a restart without persistence, an
 * eviction), a namespace counted from 0 again would be behind what hosts
 * remember, and hosts would read and write different keys. Starting at the
 * current time in milliseconds instead puts a recreated generation ahead of
 * any earlier one, as long as a namespace was bumped less than once per
 * millisecond on average.
 */
final class Generation
{
    public static function initial(): int
    {
        return (int) (microtime(true) * 1000);
    }
}
