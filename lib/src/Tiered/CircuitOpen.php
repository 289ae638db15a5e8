<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * The shared tier was not asked: the circuit breaker is open after its
 * failures (see CircuitBreaker). Counted in Tiered's stats as "skipped",
 * not told to $onError, which heard the failures that opened it.
 */
final class CircuitOpen extends SharedTierException
{
}
