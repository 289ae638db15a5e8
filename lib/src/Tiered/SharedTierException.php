<?php

declare(strict_types=1);

namespace Resident\Tiered;

/** The shared tier (Redis, Memcached) failed: down, timed out, refused the command. */
class SharedTierException extends \RuntimeException
{
}
