<?php

declare(strict_types=1);

namespace UserCache;

/** What Cache::getPoolStatus() reports, taken when it is called. */
final readonly class CachePoolStatus
{
    /** @param list<string> $keys */
    private function __construct(
        private readonly string $name,
        private readonly array $keys,
        private readonly int $used,
    ) {
    }

    /**
     * @internal
     * @param list<string> $keys
     */
    public static function of(string $name, array $keys, int $used): self
    {
        return new self($name, $keys, $used);
    }

    public function getPoolName(): string
    {
        return $this->name;
    }

    public function getEntryCount(): int
    {
        return \count($this->keys);
    }

    /** @return list<string> */
    public function getEntryKeys(): array
    {
        return $this->keys;
    }

    public function getUsedMemory(): int
    {
        return $this->used;
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
