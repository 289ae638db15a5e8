<?php

declare(strict_types=1);

namespace Resident\Tiered;

/** The shared tier (Redis, Memcached) failed: down, timed out, refused the command. */
final class SharedTierException extends \RuntimeException
{
}
