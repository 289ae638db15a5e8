<?php

declare(strict_types=1);

namespace UserCache;

/**
 * What Cache::getStatus() reports, taken when it is called. Over APCu the
 * memory figures are APCu's shared memory; over a PHP array they are the
 * bytes the polyfill's entries hold. Figures the polyfill has no source for
 * are 0.
 */
final readonly class CacheStatus
{
    /** @param array<string, int> $figures */
    private function __construct(private readonly array $figures)
    {
    }

    /** @internal */
    public static function take(): self
    {
        $figures = ['configured' => 0, 'size' => 0, 'used' => 0, 'free' => 0, 'entries' => 0, 'capacity' => 0, 'expunges' => 0];
        if (\Resident\Polyfill\ApcuStorage::isUsable()) {
            $sma = apcu_sma_info(true);
            $info = apcu_cache_info(true);
            $size = (int) ($sma['num_seg'] * $sma['seg_size']);
            $figures = ['configured' => $size, 'size' => $size, 'used' => $size - (int) $sma['avail_mem'], 'free' => (int) $sma['avail_mem'],
                'entries' => (int) ($info['num_entries'] ?? 0), 'capacity' => (int) ($info['num_slots'] ?? 0), 'expunges' => (int) ($info['expunges'] ?? 0)];
        } else {
            $used = 0;
            $entries = 0;
            foreach (Cache::getPools() as $pool) {
                $status = $pool->getPoolStatus();
                $used += $status->getUsedMemory();
                $entries += $status->getEntryCount();
            }
            $figures['used'] = $used;
            $figures['entries'] = $entries;
        }

        return new self($figures);
    }

    public function getAvailability(): CacheAvailability
    {
        return CacheAvailability::Available;
    }

    public function getConfiguredMemory(): int
    {
        return $this->figures['configured'];
    }

    public function getSharedMemorySize(): int
    {
        return $this->figures['size'];
    }

    public function getUsedMemory(): int
    {
        return $this->figures['used'];
    }

    public function getFreeMemory(): int
    {
        return $this->figures['free'];
    }

    public function getWastedMemory(): int
    {
        return 0;
    }

    public function getEntryCount(): int
    {
        return $this->figures['entries'];
    }

    public function getEntryCapacity(): int
    {
        return $this->figures['capacity'];
    }

    public function getTombstoneCount(): int
    {
        return 0;
    }

    public function getExpungeCount(): int
    {
        return $this->figures['expunges'];
    }

    public function getEvictionCount(): int
    {
        return 0;
    }

    public function getStoreFailureCount(): int
    {
        return 0;
    }

    public function getGraphPinSlotsInUse(): int
    {
        return 0;
    }

    public function getGraphPinnedReferences(): int
    {
        return 0;
    }

    public function getDeadPinOwnersReclaimed(): int
    {
        return 0;
    }

    public function getDeadPinsStripped(): int
    {
        return 0;
    }

    public function getCommittedMemory(): int
    {
        return $this->figures['size'];
    }

    public function getCommitFailureCount(): int
    {
        return 0;
    }

    public function __clone()
    {
        throw new \Error('Trying to clone an uncloneable object of class ' . self::class);
    }

    public function __serialize(): array
    {
        throw new \Exception("Serialization of '" . self::class . "' is not allowed");
    }

    public function __unserialize(array $data): void
    {
        throw new \Exception("Unserialization of '" . self::class . "' is not allowed");
    }
}
