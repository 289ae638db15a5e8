#!/usr/bin/env bash
# make demo: nginx + php-fpm on 127.0.0.1 with Resident and APCu, every
# scenario of the HTTP benchmark app for a few seconds each, one table.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/php8.2 -n -d extension=posix bench/http/run.php --duration="${DEMO_DURATION:-4}" --rounds=1 "$@"
