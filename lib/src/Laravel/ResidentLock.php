<?php

declare(strict_types=1);

namespace Resident\Laravel;

use Illuminate\Cache\Lock;
use Psr\Log\LoggerInterface;
use Resident\Cache;
use Resident\Support\Writes;

/**
 * A Laravel atomic lock: an entry holding the owner's token, created with
 * add() so that only one owner gets it, and expiring after the lock's
 * seconds (0: held until released).
 *
 * release() reads the owner, then deletes: if the lock expired in between
 * and someone else took it, that lock is deleted too. Laravel's own
 * CacheLock has the same window; keep lock times longer than the work.
 */
final class ResidentLock extends Lock
{
    /** @param string $id the storage key of the lock entry */
    public function __construct(
        private readonly Cache $pool,
        string $id,
        int $seconds,
        ?string $owner = null,
        private readonly ?LoggerInterface $logger = null,
    )
    {
        parent::__construct($id, $seconds, $owner);
    }

    public function acquire(): bool
    {
        return Writes::add($this->pool, $this->name, $this->owner, max(0, $this->seconds), $this->logger);
    }

    public function release(): bool
    {
        return $this->isOwnedByCurrentProcess() && $this->pool->delete($this->name);
    }

    public function forceRelease(): void
    {
        $this->pool->delete($this->name);
    }

    protected function getCurrentOwner(): mixed
    {
        return $this->pool->fetch($this->name);
    }
}
