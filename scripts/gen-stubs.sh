#!/usr/bin/env bash
# Regenerates src/api/*_arginfo.h from src/api/*.stub.php with PHP's own
# gen_stub.php (shipped by php8.2-dev), pointing it at Debian's php-parser
# instead of the copy it would download.
set -euo pipefail
cd "$(dirname "$0")/.."
PHP=${PHP:-/usr/bin/php8.2}
GEN=/usr/lib/php/$("$PHP" -r 'echo basename(PHP_EXTENSION_DIR);')/build/gen_stub.php
work=build/gen_stub
mkdir -p "$work/PHP-Parser-4.15.1"
cp "$GEN" "$work/gen_stub.php"
ln -sfn /usr/share/php "$work/PHP-Parser-4.15.1/lib"
"$PHP" "$work/gen_stub.php" "$@" src/api/resident.stub.php src/api/compat.stub.php
