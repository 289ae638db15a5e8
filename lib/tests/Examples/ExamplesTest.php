<?php

declare(strict_types=1);

namespace Resident\Tests\Examples;

use PHPUnit\Framework\TestCase;

/**
 * Every example of README.md is a file under examples/ with its expected
 * output beside it (.out); each runs in a PHP of its own, started as the
 * tests were (tests/run.sh passes the command in RESIDENT_TEST_PHP).
 */
final class ExamplesTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function examples(): iterable
    {
        foreach (glob(\dirname(__DIR__, 2) . '/examples/*.php') as $file) {
            if (basename($file) !== 'autoload.php') {
                yield basename($file) => [$file];
            }
        }
    }

    /** @dataProvider examples */
    public function testExample(string $file): void
    {
        $expected = substr($file, 0, -4) . '.out';
        self::assertFileExists($expected);

        $php = getenv('RESIDENT_TEST_PHP') ?: escapeshellarg(\PHP_BINARY);
        $process = proc_open("$php " . escapeshellarg($file), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $stdout = stream_get_contents($pipes[1]);
        $stderr = stream_get_contents($pipes[2]);
        $status = proc_close($process);

        self::assertSame('', $stderr);
        self::assertSame(file_get_contents($expected), $stdout);
        self::assertSame(0, $status);
    }

    /** The README quotes each example and its output whole, so what it shows is what ran. */
    public function testTheReadmeQuotesEachExample(): void
    {
        $readme = (string) file_get_contents(\dirname(__DIR__, 2) . '/README.md');
        foreach (self::examples() as $name => [$file]) {
            self::assertStringContainsString("```php\n" . file_get_contents($file) . "```\n", $readme, $name);
            self::assertStringContainsString("```\n" . file_get_contents(substr($file, 0, -4) . '.out') . "```\n", $readme, $name);
        }
    }
}
