<?php

declare(strict_types=1);

namespace Resident\Polyfill;

/**
 * How the polyfill keeps values: scalars and null as they are (so counters
 * stay integers the storage can swap), anything else serialized into a
 * one-element array. A fetch therefore always returns a fresh copy, as the
 * extension does: two fetches never return the same object.
 *
 * @internal
 */
final class Encoding
{
    /** The name of the anonymous class a value was last refused for ("Parent@anonymous"), for UserCache's wording. */
    public static ?string $refusedAnonymousClass = null;

    /**
     * @param string $where how the error names the value: '$value', "\$values['a']", '$compute()'...
     * @param string|null $wrapper the key of the one-element array the caller wraps what it names $where in
     *                             (keep()'s ['app' => ...]): errors leave the wrapper out, as the extension's do
     * @throws \TypeError as the extension does, naming the part that cannot be cached
     */
    public static function encode(mixed $value, string $method, int $arg, string $argName, string $where, ?string $wrapper = null): mixed
    {
        if ($wrapper === null && ($value === null || \is_scalar($value))) {
            return $value;
        }
        $named = $wrapper === null ? $value : $value[$wrapper];
        if (self::isResource($named)) {
            throw self::refusal($method, $arg, $argName, "$where is a resource");
        }
        try {
            return [serialize($value)];
        } catch (\Throwable $e) {
            $refused = self::find($named, $where, []);
            if ($refused === null) {
                throw $e; // thrown by the value's own __serialize() or __sleep()
            }
            throw self::refusal($method, $arg, $argName, $refused);
        }
    }

    public static function decode(mixed $encoded): mixed
    {
        return \is_array($encoded) ? unserialize($encoded[0]) : $encoded;
    }

    /** The type as the extension's counter errors name it ("an array", "a string"...). */
    public static function describe(mixed $encoded): string
    {
        $type = match (true) {
            \is_array($encoded) => $encoded[0][0] === 'a' ? 'array' : 'object',
            \is_bool($encoded) => 'bool',
            default => get_debug_type($encoded),
        };

        return (str_contains('aeiou', $type[0]) ? 'an ' : 'a ') . $type;
    }

    /** Path renders an array key as the extension does: quoted, escaped, cut at 64 bytes. */
    public static function keyPath(int|string $key): string
    {
        if (\is_int($key)) {
            return "[$key]";
        }
        $shown = addcslashes(substr($key, 0, 64), "'\\");
        $shown = preg_replace_callback('/[\x00-\x1f]/', static fn (array $m): string => sprintf('\\x%02x', \ord($m[0])), $shown);

        return "['" . $shown . (\strlen($key) > 64 ? '...' : '') . "']";
    }

    /**
     * Walks $value for what serialize() refused. Only runs after a refusal.
     *
     * @param array<int, true> $seen objects already walked (cycles)
     * @return string|null "<path> is <what>", or null when nothing in $value is refused
     */
    private static function find(mixed $value, string $path, array $seen): ?string
    {
        if (self::isResource($value)) {
            return "$path is a resource";
        }
        if (\is_array($value)) {
            foreach ($value as $key => $item) {
                $found = self::find($item, $path . self::keyPath($key), $seen);
                if ($found !== null) {
                    return $found;
                }
            }

            return null;
        }
        if (!\is_object($value) || isset($seen[spl_object_id($value)])) {
            return null;
        }
        $seen[spl_object_id($value)] = true;
        $refused = self::refusedObject($value);
        if ($refused !== null) {
            return "$path is $refused";
        }
        if ($value instanceof \UnitEnum || $value instanceof \Serializable && !method_exists($value, '__serialize')) {
            return null;
        }
        if (method_exists($value, '__serialize')) {
            return self::find($value->__serialize(), $path . '->__serialize()', $seen);
        }
        foreach (self::properties($value) as $name => $item) {
            $found = self::find($item, $path . '->' . $name, $seen);
            if ($found !== null) {
                return $found;
            }
        }

        return null;
    }

    private static function refusedObject(object $value): ?string
    {
        if ($value instanceof \Closure) {
            return 'a Closure';
        }
        if ($value instanceof \Generator) {
            return 'a Generator';
        }
        $class = new \ReflectionClass($value);
        if ($class->isAnonymous()) {
            self::$refusedAnonymousClass = strstr($class->getName(), "\0", true) ?: $class->getName();

            return 'an instance of an anonymous class';
        }
        if ($class->isInternal()) {
            // Internal classes that forbid serialization (WeakMap, Fiber...) say so at once.
            try {
                serialize($value);
            } catch (\Throwable $e) {
                if ($e->getMessage() === "Serialization of '{$class->getName()}' is not allowed") {
                    return 'an instance of ' . $class->getName();
                }
            }
        }

        return null;
    }

    /** @return array<string, mixed> the properties serialize() would write, by bare name */
    private static function properties(object $value): array
    {
        $properties = [];
        foreach ((array) $value as $mangled => $item) {
            // Private and protected names come as "\0Class\0name" and "\0*\0name".
            $name = (string) $mangled;
            if ($name !== '' && $name[0] === "\0") {
                $name = substr($name, strrpos($name, "\0") + 1);
            }
            $properties[$name] = $item;
        }
        if (method_exists($value, '__sleep')) {
            $kept = array_flip((array) $value->__sleep());
            $properties = array_intersect_key($properties, $kept);
        }

        return $properties;
    }

    private static function isResource(mixed $value): bool
    {
        return \is_resource($value) || get_debug_type($value) === 'resource (closed)';
    }

    private static function refusal(string $method, int $arg, string $argName, string $what): \TypeError
    {
        return new \TypeError(Arguments::prefix($method, $arg, $argName) . "cannot be cached: $what");
    }
}
