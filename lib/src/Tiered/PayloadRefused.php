<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * A payload read from the shared tier was refused (see Payload): its check
 * failed, or it names a class that is not allowed. The read is a miss; the
 * shared tier itself did not fail, so the circuit breaker does not count it.
 */
final class PayloadRefused extends SharedTierException
{
}
