<?php
/*
 * opcache.preload for the protobuf benchmark's "preloaded" modes: protobuf's
 * runtime and the generated addressbook classes are compiled and linked once,
 * in php-fpm's master, so no request autoloads them. run.php's own preload
 * file sets $generated (the generated classes' directory) and requires this.
 */
$roots = [$generated, '/usr/share/php'];
spl_autoload_register(function (string $class) use ($roots) {
    $path = str_replace('\\', '/', $class) . '.php';
    foreach ($roots as $root) {
        if (is_file("$root/$path")) {
            require_once "$root/$path";
            return;
        }
    }
});

/** Every class of the PHP files under $dir, named after their path below $root. */
function classes_under(string $root, string $dir): array
{
    $classes = [];
    $files = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$root/$dir", FilesystemIterator::SKIP_DOTS));
    foreach ($files as $file) {
        if ($file->getExtension() === 'php') {
            $classes[] = str_replace('/', '\\', substr($file->getPathname(), strlen($root) + 1, -4));
        }
    }
    sort($classes);
    return $classes;
}

foreach (array_merge(classes_under('/usr/share/php', 'Google/Protobuf'), classes_under($generated, 'Tutorial'),
    classes_under($generated, 'GPBMetadata')) as $class) {
    class_exists($class) || interface_exists($class) || trait_exists($class) || enum_exists($class);
}
