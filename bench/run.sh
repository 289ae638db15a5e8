#!/usr/bin/env bash
# make bench: the microbenchmark and the long HTTP benchmark, in one go.
# Results land in bench/results/ (micro-latest.md, latest.md, latest.svg).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/results
echo "== microbenchmark (CLI)"
/usr/bin/php8.2 -n bench/micro.php --rounds="${BENCH_ROUNDS:-5}" --out=bench/results/micro-latest.md
echo
echo "== HTTP benchmark (nginx + php-fpm + wrk)"
/usr/bin/php8.2 -n -d extension=posix bench/http/run.php --duration="${BENCH_DURATION:-10}" --rounds="${BENCH_HTTP_ROUNDS:-3}"
