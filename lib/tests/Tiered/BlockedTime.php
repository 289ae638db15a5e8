<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

/**
 * How long a call spent asleep, waiting: its wall time less the time this
 * thread ran on a CPU and the time it waited in the run queue for one
 * (Linux's /proc/thread-self/schedstat, in nanoseconds).
 *
 * What a deadline bounds is time asleep waiting for a server. Wall time
 * also grows with the machine's load (a runnable process that gets no
 * CPU); this measure does not, so a bound on it cannot fail under load
 * without a defect.
 */
final class BlockedTime
{
    /** @return array{0: float, 1: float, 2: float} [wall, on a CPU, in the run queue], seconds */
    public static function sample(): array
    {
        [$onCpu, $waiting] = explode(' ', (string) file_get_contents('/proc/thread-self/schedstat'));

        return [microtime(true), (int) $onCpu / 1e9, (int) $waiting / 1e9];
    }

    /** @param array{0: float, 1: float, 2: float} $before @param array{0: float, 1: float, 2: float} $after */
    public static function between(array $before, array $after): float
    {
        return max(0.0, ($after[0] - $before[0]) - ($after[1] - $before[1]) - ($after[2] - $before[2]));
    }

    /**
     * @template T
     * @param \Closure(): T $call
     * @return array{0: T, 1: float} its result, and the seconds it spent asleep
     */
    public static function of(\Closure $call): array
    {
        $before = self::sample();
        $result = $call();

        return [$result, self::between($before, self::sample())];
    }
}
