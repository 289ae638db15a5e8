#!/usr/bin/env bash
# What `make build` and `make check` need, checked without root or apt:
# a C compiler, make, PHP 8.2's CLI and its development files (php-config,
# phpize with autoconf, run-tests.php). Names each missing piece and the
# Debian package that has it, then exits 1; `make deps` (root) installs them.
#
#   scripts/check-tools.sh [php-config] [php] [cc]
set -uo pipefail
php_config=${1:-php-config8.2}
php=${2:-/usr/bin/php8.2}
cc=${3:-cc}

missing=()
need() { # command package
  command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2)")
}

need "$cc" "build-essential"
need make "build-essential"
need "$php" "php8.2-cli"
need "$php_config" "php8.2-dev"
phpize=$(dirname "$(command -v "$php_config" 2>/dev/null || echo /usr/bin/php-config8.2)")/$(basename "$php_config" | sed 's/php-config/phpize/')
need "$phpize" "php8.2-dev"
need autoconf "autoconf, a dependency of php8.2-dev"
if command -v "$php" >/dev/null 2>&1; then
  runner=/usr/lib/php/$("$php" -n -r 'echo basename(PHP_EXTENSION_DIR);' 2>/dev/null)/build/run-tests.php
  [ -f "$runner" ] || missing+=("$runner (php8.2-dev)")
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "Resident needs, to build and run make check:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  echo "Install them (as root: make deps, or apt-get install the packages named), or point the Makefile at another PHP: make check PHP_CONFIG82=... PHP82=..." >&2
  exit 1
fi
