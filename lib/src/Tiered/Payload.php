<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * A value as the shared tier keeps it, with its expiry, so that a host
 * filling its local tier knows how long the value may live there (never
 * past its expiry in the shared tier).
 *
 * Bytes read from Redis or Memcached come from whoever can write there, so
 * they are checked before anything is made of them:
 *
 *   "RT" version(1) kind(1) tag(16 or 32) expiresAt(8, big-endian ms) serialize(value)
 *
 * The tag covers every byte after it and the header: with a secret it is an
 * HMAC-SHA256 (a payload without the secret's tag is refused), without one
 * an xxh128 checksum (which only tells a damaged or foreign payload). Then
 * unserialize() may make objects of the classes allowed only: any other
 * class named is refused, never instantiated (no constructor, __wakeup(),
 * __unserialize() or __destruct() of it runs). A value holding an object
 * of a class that is not allowed is refused at encode() too, so that what
 * one host stores, every host can read.
 */
final class Payload
{
    private const MAGIC = 'RT';
    private const VERSION = 1;
    private const KIND_CHECKSUM = 1;
    private const KIND_HMAC = 2;
    private const HEADER_BYTES = 4;
    private const EXPIRY_BYTES = 8;

    /**
     * @param list<class-string>|bool $allowedClasses classes values may hold objects of: a list, true for any, false for none
     * @param string|null             $secret         signs payloads; every host must have the same (at least 32 bytes)
     */
    public function __construct(
        private readonly array|bool $allowedClasses = false,
        #[\SensitiveParameter] private readonly ?string $secret = null,
    ) {
        if ($secret !== null && \strlen($secret) < 32) {
            throw new \InvalidArgumentException(sprintf('The payload secret must have at least 32 bytes, %d given', \strlen($secret)));
        }
        if (\is_array($allowedClasses)) {
            foreach ($allowedClasses as $class) {
                if (!\is_string($class) || $class === '') {
                    throw new \InvalidArgumentException('The allowed classes must be class names, ' . get_debug_type($class) . ' given');
                }
            }
        }
    }

    /**
     * @param int $expiresAt Unix time in milliseconds, 0 for never
     * @throws \Exception when $value cannot be serialized (a closure...)
     * @throws PayloadRefused when $value holds an object of a class that is not allowed
     */
    public function encode(mixed $value, int $expiresAt): string
    {
        $body = pack('J', $expiresAt) . serialize($value);
        if ($this->allowedClasses !== true && self::mayNameClasses($body)) {
            // What unserialize() would refuse on the other hosts, refused here.
            $this->unserialize(substr($body, self::EXPIRY_BYTES));
        }
        $kind = $this->secret === null ? self::KIND_CHECKSUM : self::KIND_HMAC;
        $header = self::MAGIC . \chr(self::VERSION) . \chr($kind);

        return $header . $this->tag($kind, $header . $body) . $body;
    }

    /**
     * @return array{0: mixed, 1: int}|null [value, expiresAt], or null for bytes that are no payload of
     *                                      this format (another writer under the prefix, an older format)
     * @throws PayloadRefused when the payload is of this format but fails its check or names a class not allowed
     */
    public function decode(string $payload): ?array
    {
        if (\strlen($payload) < self::HEADER_BYTES || !str_starts_with($payload, self::MAGIC) || \ord($payload[2]) !== self::VERSION) {
            return null;
        }
        $kind = \ord($payload[3]);
        $expected = $this->secret === null ? self::KIND_CHECKSUM : self::KIND_HMAC;
        if ($kind !== $expected) {
            throw new PayloadRefused($kind === self::KIND_HMAC
                ? 'a signed payload, and this host has no secret to check it with'
                : 'an unsigned payload, and this host takes signed ones only');
        }
        $tagBytes = \strlen($this->tag($kind, ''));
        if (\strlen($payload) < self::HEADER_BYTES + $tagBytes + self::EXPIRY_BYTES) {
            throw new PayloadRefused('a payload cut short');
        }
        $header = substr($payload, 0, self::HEADER_BYTES);
        $body = substr($payload, self::HEADER_BYTES + $tagBytes);
        if (!hash_equals($this->tag($kind, $header . $body), substr($payload, self::HEADER_BYTES, $tagBytes))) {
            throw new PayloadRefused($kind === self::KIND_HMAC ? 'a payload whose signature does not match' : 'a payload whose checksum does not match');
        }
        $expiresAt = unpack('J', $body)[1];

        return [$this->unserialize(substr($body, self::EXPIRY_BYTES)), $expiresAt];
    }

    private function tag(int $kind, string $bytes): string
    {
        return $kind === self::KIND_HMAC ? hash_hmac('sha256', $bytes, (string) $this->secret, true) : hash('xxh128', $bytes, true);
    }

    /** @throws PayloadRefused */
    private function unserialize(string $serialized): mixed
    {
        // Without a secret, anyone can make bytes that pass the checksum: what
        // unserialize() says of malformed ones is a refusal, not a warning.
        $problem = null;
        set_error_handler(static function (int $level, string $message) use (&$problem): bool {
            $problem ??= $message;

            return true;
        });
        try {
            $value = unserialize($serialized, ['allowed_classes' => $this->allowedClasses, 'max_depth' => 4096]);
        } catch (\Throwable $e) {
            throw new PayloadRefused('a value that failed to unserialize: ' . $e->getMessage(), 0, $e);
        } finally {
            restore_error_handler();
        }
        if ($problem !== null || ($value === false && $serialized !== 'b:0;')) {
            throw new PayloadRefused('a value unserialize() cannot read' . ($problem !== null ? ": $problem" : ''));
        }
        if ($this->allowedClasses !== true && self::mayNameClasses($serialized) && ($class = self::refusedClass($value)) !== null) {
            throw new PayloadRefused(sprintf('a value holding an object of class %s, which is not among the allowed classes (%s)',
                $class, $this->allowedClasses === false ? 'none' : implode(', ', $this->allowedClasses)));
        }

        return $value;
    }

    /** Whether serialized bytes may name a class (an object, or a Serializable's "C:"). */
    private static function mayNameClasses(string $serialized): bool
    {
        return str_contains($serialized, 'O:') || str_contains($serialized, 'C:');
    }

    /**
     * The class of the first object unserialize() refused to make (it made
     * a __PHP_Incomplete_Class in its place), or null.
     *
     * @param \SplObjectStorage<object, null>|null $seen
     */
    private static function refusedClass(mixed $value, ?\SplObjectStorage $seen = null, int $depth = 0): ?string
    {
        if ($depth > 4096 || (!\is_array($value) && !\is_object($value))) {
            return null;
        }
        if (\is_object($value)) {
            if ($value instanceof \__PHP_Incomplete_Class) {
                return (string) ((array) $value)['__PHP_Incomplete_Class_Name'];
            }
            $seen ??= new \SplObjectStorage();
            if ($seen->contains($value)) {
                return null;
            }
            $seen->attach($value);
            $value = (array) $value;
        }
        foreach ($value as $item) {
            if (($class = self::refusedClass($item, $seen, $depth + 1)) !== null) {
                return $class;
            }
        }

        return null;
    }

    /** Unix time in milliseconds when a value stored now with $ttl seconds expires; 0 for none. */
    public static function expiry(int $ttl): int
    {
        return $ttl > 0 ? self::now() + $ttl * 1000 : 0;
    }

    public static function expired(int $expiresAt): bool
    {
        return $expiresAt !== 0 && $expiresAt <= self::now();
    }

    public static function now(): int
    {
        return (int) (microtime(true) * 1000);
    }
}
