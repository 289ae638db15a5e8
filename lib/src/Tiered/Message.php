<?php

declare(strict_types=1);

namespace Resident\Tiered;

/**
 * Invalidations as published on the channel, readable in redis-cli:
 *   "k {namespace} {key}"          drop one key (the key may hold any byte)
 *   "g {namespace} {generation}"   the namespace moved to this generation
 * Namespaces have no spaces (see Tiered::checkNamespace()), so the first
 * two spaces split a message unambiguously.
 */
final class Message
{
    public static function key(string $namespace, string $key): string
    {
        return "k $namespace $key";
    }

    public static function generation(string $namespace, int $generation): string
    {
        return "g $namespace $generation";
    }

    /**
     * @return array{0: 'k', 1: string, 2: string}|array{0: 'g', 1: string, 2: int}|null
     */
    public static function decode(string $message): ?array
    {
        $parts = explode(' ', $message, 3);
        if (\count($parts) !== 3 || $parts[1] === '') {
            return null;
        }
        [$type, $namespace, $rest] = $parts;
        if ($type === 'k') {
            return ['k', $namespace, $rest];
        }
        if ($type === 'g' && preg_match('/^\d{1,18}$/', $rest) === 1) {
            return ['g', $namespace, (int) $rest];
        }

        return null;
    }
}
