<?php

declare(strict_types=1);

namespace Resident\Tests\Support;

use Psr\Log\AbstractLogger;

/** A PSR-3 logger that keeps what it is told, placeholders filled in. */
final class RecordingLogger extends AbstractLogger
{
    /** @var list<array{0: string, 1: string}> [level, message] */
    public array $records = [];

    public function log($level, string|\Stringable $message, array $context = []): void
    {
        $this->records[] = [(string) $level, preg_replace_callback('/\{(\w+)\}/', static fn (array $m): string =>
            isset($context[$m[1]]) && (\is_scalar($context[$m[1]]) || $context[$m[1]] instanceof \Stringable) ? (string) $context[$m[1]] : $m[0],
            (string) $message)];
    }

    /** @return list<string> the messages logged at $level */
    public function at(string $level): array
    {
        return array_values(array_map(static fn (array $r): string => $r[1], array_filter($this->records, static fn (array $r): bool => $r[0] === $level)));
    }
}
