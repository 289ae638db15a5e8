<?php
/*
 * Packaging: the licence, the PIE composer.json, the library's composer.json, and the
 * Debian package built from debian/ with dpkg-buildpackage, installed on
 * this machine (then purged): `php -m` lists resident, php-fpm with
 * Debian's own configuration serves with it.
 *
 *   php8.2 tests/packaging/run.php        (as root)
 *
 * Prints one line per check and "packaging: N passed, N failed".
 */
$root = dirname(__DIR__, 2);
$cache = getenv('RESIDENT_CI_CACHE') ?: '/var/cache/resident-ci';
$passed = $failed = 0;
function check(string $name, bool $ok, string $detail = ''): void
{
    global $passed, $failed;
    $ok ? $passed++ : $failed++;
    printf("%s %s%s\n", $ok ? 'PASS' : 'FAIL', $name, $ok || $detail === '' ? '' : ":\n$detail");
}
function sh(string $cmd, ?string &$out = null): int
{
    exec("$cmd 2>&1", $lines, $rc);
    $out = implode("\n", $lines);
    return $rc;
}

// 1. composer.json files. Debian's Composer (2.5) predates the php-ext
// section PIE reads, so that section is also checked against the schema of
// a current Composer, fetched once from Packagist.
$rc = sh('cd ' . escapeshellarg($root) . ' && composer validate --no-check-publish', $out);
check('composer validate (PIE composer.json, type php-ext)', $rc === 0 && !str_contains($out, '# Errors'), $out);
$rc = sh('cd ' . escapeshellarg("$root/lib") . ' && composer validate --no-check-publish', $out);
check('composer validate (lib/composer.json)', $rc === 0 && !str_contains($out, '# Errors'), $out);
// One licence, said the same everywhere it is said: LICENSE, both
// composer.json files, debian/copyright, the head of every C source file.
$license = strtok((string)file_get_contents("$root/LICENSE"), "\n");
$copyright = (string)file_get_contents("$root/debian/copyright");
// (Arginfo headers are generated from the stubs by PHP's gen_stub.php.)
$sources = array_filter(array_merge(glob("$root/src/*.h"), glob("$root/src/*/*.[ch]")), fn ($f) => !str_ends_with($f, '_arginfo.h'));
$unlabelled = array_filter($sources, fn ($f) => !str_contains((string)file_get_contents($f, false, null, 0, 200), 'SPDX-License-Identifier: MIT'));
check('one licence: LICENSE (MIT), both composer.json, debian/copyright, every C source file',
    $license === 'MIT License' && json_decode(file_get_contents("$root/composer.json"), true)['license'] === 'MIT'
    && json_decode(file_get_contents("$root/lib/composer.json"), true)['license'] === 'MIT'
    && str_contains($copyright, "Files: *\nCopyright: 2026 The Resident authors\nLicense: MIT\n") && $sources && !$unlabelled,
    "LICENSE: $license; C files without the SPDX line: " . implode(', ', array_map(fn ($f) => substr($f, strlen($root) + 1), $unlabelled)));
$schema = "$cache/composer-2.11.2/res/composer-schema.json";
if (!is_file($schema)) {
    sh('composer create-project --no-install --no-scripts --no-interaction --quiet composer/composer '
        . escapeshellarg("$cache/composer-2.11.2") . ' 2.11.2');
}
require_once '/usr/share/php/JsonSchema/autoload.php';
$validator = new JsonSchema\Validator();
$data = json_decode(file_get_contents("$root/composer.json"));
if (is_file($schema)) {
    $validator->validate($data, (object)['$ref' => 'file://' . $schema]);
}
check('composer.json valid against Composer 2.11\'s schema (php-ext included)', is_file($schema) && $validator->isValid()
    && isset($data->{'php-ext'}->{'extension-name'}),
    is_file($schema) ? json_encode($validator->getErrors()) : "no schema at $schema");

// 2. The Debian package, built from the tracked files.
$work = sys_get_temp_dir() . '/resident-deb-' . getmypid();
mkdir("$work/src", 0777, true);
register_shutdown_function(function () use ($work) {
    sh('dpkg --purge php8.2-resident');
    sh('rm -rf ' . escapeshellarg($work));
});
sh('cd ' . escapeshellarg($root) . ' && git ls-files -z | grep -zv "^lib/\|^bench/\|^tests/" | xargs -0 tar -cf - | tar -xf - -C ' . escapeshellarg("$work/src"));
$rc = sh('cd ' . escapeshellarg("$work/src") . ' && dpkg-buildpackage -us -uc -b', $out);
$debs = glob("$work/php8.2-resident_*.deb");
check('dpkg-buildpackage -us -uc -b builds php8.2-resident', $rc === 0 && count($debs) === 1, substr($out, -3000));
if (!$debs) {
    printf("packaging: %d passed, %d failed\n", $passed, $failed + 3);
    exit(1);
}
$rc = sh('dpkg -i ' . escapeshellarg($debs[0]), $out);
sh('php8.2 -m', $modules);
check('the package installs; php -m lists resident', $rc === 0 && in_array('resident', explode("\n", $modules), true), $out);
sh('php8.2 --ri resident', $ri);
check('php --ri resident shows its version and settings', str_contains($ri, 'Version => 0.1.0') && str_contains($ri, 'resident.memory'), $ri);

// php-fpm with Debian's own php.ini and conf.d (the package enabled it there).
require_once "$root/tests/fpm/Fpm.php";
file_put_contents("$work/status.php", '<?php echo json_encode(["loaded" => extension_loaded("resident"), "stored" => Resident\Cache::pool()->store("k", [1, 2]), "fetched" => Resident\Cache::pool()->fetch("k"), "sapi" => PHP_SAPI]);');
$body = null;
$log = '';
try {
    $fpm = new Fpm('/usr/sbin/php-fpm8.2', null, 2, global: ['pid' => "$work/fpm.pid"], name: 'www');
    [$headers, $body] = $fpm->client->get("$work/status.php", '');
    $log = $fpm->log();
    $fpm->stop();
} catch (Throwable $e) {
    $body = $e->getMessage();
}
check('php-fpm with Debian\'s configuration serves with the package', json_decode((string)$body, true) === ['loaded' => true, 'stored' => true, 'fetched' => [1, 2], 'sapi' => 'fpm-fcgi'],
    $body . "\n" . $log);

printf("packaging: %d passed, %d failed\n", $passed, $failed);
exit($failed ? 1 : 0);
