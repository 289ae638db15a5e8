<?php

declare(strict_types=1);

namespace Resident\Tests\Api;

use PHPUnit\Framework\TestCase;

/**
 * The loaded Resident\Cache and Resident\KeyIterator have the methods and
 * signatures resident.stub.php declares for the extension. Against the
 * polyfill this keeps it in step when the extension's API changes; against
 * the extension it checks this test's reading of the stub.
 */
final class ApiParityTest extends TestCase
{
    /** Extension methods the polyfill leaves out, and why. */
    private const NOT_IN_POLYFILL = [
        'Cache::inspect' => 'a map of the shared heap for the dashboard: there is no heap without the extension',
        'Cache::dump' => 'a dump is an image of the shared segment for a warm restart of php-fpm: without the extension there is no segment',
        'Cache::restore' => 'loads a dump made by the extension into its segment',
    ];

    /** @return iterable<string, array{string, string, bool, string, string}> */
    public static function stubMethods(): iterable
    {
        $stub = \dirname(__DIR__, 3) . '/src/api/resident.stub.php';
        if (!is_file($stub)) {
            return; // lib/ used outside this repository
        }
        $source = (string) file_get_contents($stub);
        foreach (['Cache', 'KeyIterator'] as $class) {
            preg_match('/final class ' . $class . '\b[^{]*\{(.*?)\n    \}/s', $source, $body);
            preg_match_all('/public (static )?function (\w+)\(([^)]*)\): ([^ {]+)/', $body[1], $methods, \PREG_SET_ORDER);
            foreach ($methods as [, $static, $name, $params, $return]) {
                yield "$class::$name" => [$class, $name, $static !== '', $params, $return];
            }
        }
    }

    /** @dataProvider stubMethods */
    public function testMethod(string $class, string $name, bool $static, string $params, string $return): void
    {
        if (!\extension_loaded('resident') && isset(self::NOT_IN_POLYFILL["$class::$name"])) {
            self::markTestSkipped(self::NOT_IN_POLYFILL["$class::$name"]);
        }
        $fqcn = "Resident\\$class";
        self::assertTrue(method_exists($fqcn, $name), "resident.stub.php declares $class::$name(), which the loaded $fqcn (lib/polyfill/ without the extension) lacks");
        $method = new \ReflectionMethod($fqcn, $name);
        self::assertSame($static, $method->isStatic(), "static $class::$name");
        self::assertSame($return, self::local((string) $method->getReturnType()), "return type of $class::$name");
        self::assertSame(self::stubParameters($params), self::parameters($method), "parameters of $class::$name");
    }

    /** @return list<string> "type $name" or "type $name = default", as in the stub */
    private static function stubParameters(string $params): array
    {
        if (trim($params) === '') {
            return [];
        }

        return array_map(static function (string $param): string {
            $param = trim($param);
            if (str_contains($param, '=')) {
                [$declared, $default] = array_map('trim', explode('=', $param, 2));

                return $declared . ' = ' . var_export(eval("return $default;"), true);
            }

            return $param;
        }, explode(',', $params));
    }

    /** A type as the stub writes it, inside namespace Resident. */
    private static function local(string $type): string
    {
        return str_replace('Resident\\', '', $type);
    }

    /** @return list<string> */
    private static function parameters(\ReflectionMethod $method): array
    {
        return array_map(static function (\ReflectionParameter $p): string {
            $declared = self::local((string) $p->getType()) . ' $' . $p->getName();

            return $p->isDefaultValueAvailable() ? $declared . ' = ' . var_export($p->getDefaultValue(), true) : $declared;
        }, $method->getParameters());
    }
}
