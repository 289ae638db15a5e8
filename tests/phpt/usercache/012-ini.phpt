--TEST--
UserCache: the proposal's user_cache.* settings with their defaults; enable, enable_cli, shm_size, entries_hint (the index's buckets), eviction_policy (lru, clear, none) and lock_lease_max set Resident's; lockfile_path and preferred_memory_model are checked; a bad value warns naming the setting; resident.* wins over its alias
--FILE--
<?php
$so = '';
foreach (file('/proc/self/maps') as $line) {
    if (str_ends_with(rtrim($line), '/resident.so')) {
        $so = substr(rtrim($line), strpos($line, '/'));
        break;
    }
}
/* Runs $code in a PHP started with these settings; its output and warnings. */
function run(string $so, array $ini, string $code): string
{
    $args = '';
    foreach ($ini as $name => $value) {
        $args .= ' -d ' . escapeshellarg("$name=$value");
    }
    $out = shell_exec(sprintf('%s -n -d extension=%s -d display_startup_errors=1 -d display_errors=stderr%s -r %s 2>&1',
        escapeshellarg(PHP_BINARY), escapeshellarg($so), $args, escapeshellarg($code)));
    return trim(str_replace(["PHP Warning:  ", " in Unknown on line 0"], ['', ''], $out));
}

echo "defaults:\n";
echo run($so, [], 'foreach (["enable", "enable_cli", "entries_hint", "eviction_policy", "lock_lease_max", "lockfile_path", "preferred_memory_model", "shm_size"] as $k) echo "user_cache.$k=", ini_get("user_cache.$k"), "\n";'), "\n";

$availability = 'echo UserCache\Cache::getStatus()->getAvailability()->name;';
echo "\nenable and enable_cli:\n";
echo run($so, [], $availability), "\n";
echo run($so, ['user_cache.enable_cli' => 1], $availability), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.enable' => 0], $availability), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'resident.enable_cli' => 0], $availability), "\n";
echo run($so, ['resident.enable_cli' => 1, 'user_cache.enable_cli' => 0], $availability), "\n";

echo "\nshm_size:\n";
$sizes = '$s = UserCache\Cache::getStatus(); echo $s->getAvailability()->name, " ", $s->getConfiguredMemory(), " ", $s->getSharedMemorySize(), " ", Resident\Cache::status()["memory_size"] ?? "-";';
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '8M'], $sizes), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '8M', 'resident.memory' => '4M'], $sizes), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '0'], $sizes), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '512K'], $sizes), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '-1'], 'echo ini_get("user_cache.shm_size");'), "\n";

echo "\neviction_policy:\n";
$fill = '$c = UserCache\Cache::getPool("fill"); $ok = 0;
for ($i = 0; $i < 400; $i++) { $ok += $c->store("k$i", str_repeat("x", 20000)); }
$s = UserCache\Cache::getStatus();
echo "first kept ", var_export($c->has("k0"), true), ", last kept ", var_export($c->has("k399"), true),
    ", evictions ", $s->getEvictionCount() > 0 ? "some" : "none", ", wipes ", $s->getExpungeCount() > 0 ? "some" : "none",
    ", refused ", $s->getStoreFailureCount() > 0 ? "some" : "none", ", all stored ", var_export($ok === 400, true);';
// "none" is what php.ini reads as an empty string: both mean none.
foreach (['lru', 'clear', 'none', 'LRU', ''] as $policy) {
    echo "$policy: ", run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '2M', 'user_cache.eviction_policy' => $policy], $fill), "\n";
}
echo "none, resident.eviction_policy=lru: ", run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '2M', 'user_cache.eviction_policy' => 'none', 'resident.eviction_policy' => 'lru'], $fill), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.eviction_policy' => 'fifo'], 'echo ini_get("user_cache.eviction_policy");'), "\n";

echo "\nlock_lease_max:\n";
$lease = 'echo ini_get("user_cache.lock_lease_max");';
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.lock_lease_max' => '5'], $lease), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.lock_lease_max' => '-5'], $lease), "\n";

echo "\nentries_hint: buckets for the entries at a load of 3/4, a power of 2, at most a quarter of the segment:\n";
$capacity = 'echo UserCache\Cache::getStatus()->getEntryCapacity();';
foreach (['0', '1000', '1536', '-1', '16777213'] as $hint) {
    echo "$hint: ", run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '16M', 'user_cache.entries_hint' => $hint], $capacity), "\n";
}
echo "resident.entries_hint=100 wins: ", run($so, ['user_cache.enable_cli' => 1, 'user_cache.shm_size' => '16M', 'user_cache.entries_hint' => '100000', 'resident.entries_hint' => '100'], $capacity), "\n";

echo "\naccepted, checked, no effect:\n";
$shown = 'echo ini_get("user_cache.lockfile_path"), "|", ini_get("user_cache.preferred_memory_model"), "|", UserCache\Cache::getStatus()->getAvailability()->name;';
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.lockfile_path' => '/var/tmp', 'user_cache.preferred_memory_model' => 'posix'], $shown), "\n";
echo run($so, ['user_cache.enable_cli' => 1, 'user_cache.lockfile_path' => 'relative/dir', 'user_cache.preferred_memory_model' => 'tmpfs'], $shown), "\n";
?>
--EXPECT--
defaults:
user_cache.enable=1
user_cache.enable_cli=0
user_cache.entries_hint=0
user_cache.eviction_policy=lru
user_cache.lock_lease_max=3600
user_cache.lockfile_path=/tmp
user_cache.preferred_memory_model=
user_cache.shm_size=16M

enable and enable_cli:
DisabledBySapi
Available
DisabledByIni
DisabledBySapi
Available

shm_size:
Available 8388608 8388608 8388608
Available 4194304 4194304 4194304
DisabledByIni 0 0 -
Warning: PHP Startup: Resident is disabled: user_cache.shm_size must be at least 1M, "512K" given
UnavailableBySharedMemoryInitializationFailed 524288 0 -
Warning: PHP Startup: user_cache.shm_size must be greater than or equal to 0, -1 given
16M

eviction_policy:
lru: first kept false, last kept true, evictions some, wipes none, refused none, all stored true
clear: first kept false, last kept true, evictions none, wipes some, refused none, all stored true
none: first kept true, last kept false, evictions none, wipes none, refused some, all stored false
LRU: first kept false, last kept true, evictions some, wipes none, refused none, all stored true
: first kept true, last kept false, evictions none, wipes none, refused some, all stored false
none, resident.eviction_policy=lru: first kept false, last kept true, evictions some, wipes none, refused none, all stored true
Warning: PHP Startup: user_cache.eviction_policy must be one of "lru", "clear" or "none", "fifo" given
lru

lock_lease_max:
5
Warning: PHP Startup: user_cache.lock_lease_max must be greater than or equal to 0, -5 given
3600

entries_hint: buckets for the entries at a load of 3/4, a power of 2, at most a quarter of the segment:
0: 32768
1000: 2048
1536: 2048
-1: Warning: PHP Startup: user_cache.entries_hint must be greater than or equal to 0, -1 given
32768
16777213: Warning: PHP Startup: user_cache.entries_hint (16777213) exceeds what user_cache.shm_size can index; clamping capacity to 524288
524288
resident.entries_hint=100 wins: 256

accepted, checked, no effect:
/var/tmp|posix|Available
Warning: PHP Startup: user_cache.lockfile_path must be an absolute path, "relative/dir" given
Warning: PHP Startup: user_cache.preferred_memory_model "tmpfs" is not a memory model available on this platform (mmap, posix, shm or cgi)
/tmp||Available
