#!/usr/bin/env bash
# Runs the library's PHPUnit suites against one implementation of Resident\Cache:
#   tests/run.sh extension [phpunit args...]   the built extension
#   tests/run.sh apcu [phpunit args...]        the polyfill over APCu
#   tests/run.sh array [phpunit args...]       the polyfill over a per-process array
# PHP runs with -n (no php.ini): only what is named here is loaded.
set -euo pipefail
lib=$(cd "$(dirname "$0")/.." && pwd)
PHP=${PHP82:-/usr/bin/php8.2}
EXT=${RESIDENT_EXT:-$lib/../build/php-8.2/modules/resident.so}
PHPUNIT=${PHPUNIT:-$lib/vendor/bin/phpunit}

mode=${1:?usage: tests/run.sh extension|apcu|array [phpunit args...]}
shift

# PHPUnit and the frameworks come from Composer, as composer.json's
# require-dev names them (the contract tests are the project's own). Runs
# started side by side install once: the first takes the lock, the others
# then find vendor/ up to date.
if [ -z "${RESIDENT_NO_COMPOSER:-}" ]; then
	flock "$lib/composer.json" bash -c '
		cd "$1"
		if [ ! -f vendor/autoload.php ] || [ composer.json -nt vendor/composer/installed.json ]; then
			COMPOSER_NO_INTERACTION=1 composer update --no-progress --quiet >&2 \
				|| { echo "tests/run.sh: composer could not install the test dependencies" >&2; exit 1; }
			touch vendor/composer/installed.json
		fi' _ "$lib"
fi

# What PHPUnit itself needs, and ctype for Laravel's Str.
php_args=(-n -d extension=dom -d extension=mbstring -d extension=tokenizer
	-d extension=xml -d extension=xmlwriter -d extension=ctype -d memory_limit=512M)
# Tiered's shared tiers: phpredis and php-memcached (Debian builds both with
# igbinary and msgpack support, which must be loaded before them).
extdir=$("$PHP" -n -r 'echo PHP_EXTENSION_DIR;')
for ext in igbinary msgpack redis memcached; do
	if [ -f "$extdir/$ext.so" ]; then php_args+=(-d "extension=$ext"); fi
done
case "$mode" in
	extension)
		[ -f "$EXT" ] || { echo "missing $EXT: run make build" >&2; exit 1; }
		php_args+=(-d "extension=$EXT" -d resident.enable_cli=1) ;;
	apcu) php_args+=(-d extension=apcu -d apc.enable_cli=1) ;;
	array) ;;
	*) echo "unknown mode $mode" >&2; exit 2 ;;
esac

# The examples test runs each example in a PHP started the same way.
RESIDENT_TEST_PHP=$(printf '%q ' "$PHP" "${php_args[@]}")
export RESIDENT_TEST_PHP RESIDENT_TEST_MODE=$mode
exec "$PHP" "${php_args[@]}" "$PHPUNIT" -c "$lib/phpunit.xml.dist" "$@"
