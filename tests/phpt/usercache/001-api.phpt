--TEST--
UserCache: the classes, enum cases and methods the ext-user_cache proposal's stub declares, with its names, signatures and modifiers
--INI--
user_cache.enable_cli=1
--FILE--
<?php
foreach (['UserCache\CacheAvailability', 'UserCache\CacheStatus', 'UserCache\CachePoolStatus', 'UserCache\Cache'] as $name) {
    $class = new ReflectionClass($name);
    $flags = array_filter(['final' => $class->isFinal() && !$class->isEnum(), 'readonly' => $class->isReadOnly(), 'enum' => $class->isEnum(),
        'internal' => $class->isInternal()]);
    echo $name, ' [', implode(' ', array_keys($flags)), ']', "\n";
    if ($class->isEnum()) {
        echo '  backed: ', var_export((new ReflectionEnum($name))->isBacked(), true), "\n";
        echo '  cases: ', implode(', ', array_map(fn ($c) => $c->name, $name::cases())), "\n";
        continue;
    }
    foreach ($class->getMethods() as $m) {
        $params = array_map(function (ReflectionParameter $p) {
            $s = ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName();
            if ($p->isDefaultValueAvailable()) {
                $s .= ' = ' . var_export($p->getDefaultValue(), true);
            }
            return $s;
        }, $m->getParameters());
        printf("  %s %s(%s)%s\n", implode(' ', Reflection::getModifierNames($m->getModifiers())), $m->getName(),
            implode(', ', $params), $m->hasReturnType() ? ': ' . $m->getReturnType() : '');
    }
    echo '  properties: ', count($class->getProperties()), ', constants: ', count($class->getConstants()), "\n";
}
?>
--EXPECT--
UserCache\CacheAvailability [enum internal]
  backed: false
  cases: Available, DisabledByIni, DisabledBySapi, UnavailableBySharedMemoryInitializationFailed, UnavailableByBackendNotInitializedBeforeWorkerStartup, UnavailableByBackendInitializedAfterWorkerStartup, UnavailableByCgiFastCgiBoundary, UnavailableByApacheBoundary, UnavailableByLsapiBoundary, UnavailableByUnknownReason
UserCache\CacheStatus [final readonly internal]
  private __construct()
  public getAvailability(): UserCache\CacheAvailability
  public getConfiguredMemory(): int
  public getSharedMemorySize(): int
  public getUsedMemory(): int
  public getFreeMemory(): int
  public getWastedMemory(): int
  public getEntryCount(): int
  public getEntryCapacity(): int
  public getTombstoneCount(): int
  public getExpungeCount(): int
  public getEvictionCount(): int
  public getStoreFailureCount(): int
  public getGraphPinSlotsInUse(): int
  public getGraphPinnedReferences(): int
  public getDeadPinOwnersReclaimed(): int
  public getDeadPinsStripped(): int
  public getCommittedMemory(): int
  public getCommitFailureCount(): int
  properties: 0, constants: 0
UserCache\CachePoolStatus [final readonly internal]
  private __construct()
  public getPoolName(): string
  public getEntryCount(): int
  public getEntryKeys(): array
  public getUsedMemory(): int
  properties: 0, constants: 0
UserCache\Cache [final internal]
  public static hasPool(string $pool): bool
  public static getPool(string $pool): UserCache\Cache
  public static deletePool(string $pool): bool
  public static getPools(): array
  public static getStatus(): UserCache\CacheStatus
  private __construct()
  public store(string $key, object|array|string|int|float|bool|null $value, int $ttl = 0): bool
  public add(string $key, object|array|string|int|float|bool|null $value, int $ttl = 0): bool
  public storeMultiple(array $values, int $ttl = 0): bool
  public increment(string $key, int $step = 1, int $ttl = 0): ?int
  public decrement(string $key, int $step = 1, int $ttl = 0): ?int
  public fetch(string $key, mixed $default = NULL): mixed
  public fetchMultiple(array $keys, mixed $default = NULL): array
  public delete(string $key): bool
  public deleteMultiple(array $keys): bool
  public clear(): bool
  public has(string $key): bool
  public lock(string $key, int $lease = 0): bool
  public unlock(string $key): bool
  public remember(string $key, callable $callback, int $ttl = 0): mixed
  public getPoolStatus(): UserCache\CachePoolStatus
  properties: 0, constants: 0
