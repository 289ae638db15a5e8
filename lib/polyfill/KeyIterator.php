<?php

declare(strict_types=1);

namespace Resident;

/**
 * Live keys of a pool. The polyfill takes them all when keys() is called
 * (the extension walks the pool step by step instead).
 *
 * @implements \Iterator<int, string>
 */
final class KeyIterator implements \Iterator
{
    private int $position = 0;

    /** @param list<string> $keys */
    private function __construct(private readonly array $keys)
    {
    }

    /**
     * @internal made by Cache::keys()
     * @param list<string> $keys
     */
    public static function fromKeys(array $keys): self
    {
        return new self(array_values($keys));
    }

    public function current(): string
    {
        return $this->keys[$this->position] ?? throw new \Error('The iteration is over');
    }

    public function key(): int
    {
        return $this->position;
    }

    public function next(): void
    {
        ++$this->position;
    }

    public function rewind(): void
    {
        $this->position = 0;
    }

    public function valid(): bool
    {
        return $this->position < \count($this->keys);
    }
}
