#!/usr/bin/env bash
# make bench: every benchmark, in one go. Results land in bench/results/
# (micro-latest.md, bytes-latest.md, flood-latest.md, atomic-latest.md, latest.md, latest.svg,
# protobuf-latest.md, eviction-latest.md, zend-latest.md, zend-classes-latest.md,
# cost-latest.md, worker-latest.md, lazy-latest.md, slim-latest.md,
# laravel-latest.md, harness-latest.md, harness-instructions-latest.md,
# harness-floor-latest.md);
# bench/README.md
# quotes them.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/results
echo "== microbenchmark (CLI)"
/usr/bin/php8.2 -n bench/micro.php --rounds="${BENCH_ROUNDS:-5}" --out=bench/results/micro-latest.md
echo
echo "== bytes of shared memory per cached value vs an igbinary string (CLI)"
/usr/bin/php8.2 -n bench/bytes.php --out=bench/results/bytes-latest.md
echo
echo "== the ext-user_cache proposal's harness: 28 workloads, UserCache\\Cache vs APCu (php, igbinary) (CLI)"
/usr/bin/php8.2 -n bench/harness/run.php --rounds="${BENCH_HARNESS_ROUNDS:-5}" --samples="${BENCH_HARNESS_SAMPLES:-5}" \
	--sample-ms="${BENCH_HARNESS_SAMPLE_MS:-20}" --out=bench/results/harness-latest.md
echo
echo "== the harness's losing workloads: instructions per operation (CLI, callgrind)"
/usr/bin/php8.2 -n bench/harness/instructions.php --out=bench/results/harness-instructions-latest.md
echo
echo "== the floor of the harness's reads: each read workload with no cache at all (CLI)"
/usr/bin/php8.2 -n bench/harness/floor.php --rounds="${BENCH_HARNESS_FLOOR_ROUNDS:-3}" --out=bench/results/harness-floor-latest.md
echo
echo "== hash flooding: keys colliding under PHP's string hash (CLI, callgrind)"
/usr/bin/php8.2 -n bench/flood.php --rounds="${BENCH_ROUNDS:-5}" --out=bench/results/flood-latest.md
echo
echo "== counters and remember() under contention"
dir=/usr/lib/php/$(/usr/bin/php8.2 -r 'echo basename(PHP_EXTENSION_DIR);')
/usr/bin/php8.2 -n -d extension=posix -d extension="$PWD/build/php-8.2/modules/resident.so" -d resident.enable_cli=1 \
	-d extension="$dir/apcu.so" -d apc.enable_cli=1 bench/atomic.php --seconds="${BENCH_ATOMIC_SECONDS:-2}" \
	--rounds="${BENCH_ROUNDS:-3}" --out=bench/results/atomic-latest.md
echo
echo "== worker mode: a long-running worker reading a 10k-leaf config and a 1,000-object graph per request"
/usr/bin/php8.2 -n bench/worker.php --rounds="${BENCH_ROUNDS:-5}" --seconds="${BENCH_WORKER_SECONDS:-1.5}" --out=bench/results/worker-latest.md
echo
echo "== HTTP benchmark (nginx + php-fpm + wrk)"
/usr/bin/php8.2 -n -d extension=posix bench/http/run.php --duration="${BENCH_DURATION:-10}" --rounds="${BENCH_HTTP_ROUNDS:-3}"
echo
echo "== protobuf descriptor pool, with and without RequestOverStatic (nginx + php-fpm + wrk)"
/usr/bin/php8.2 -n -d extension=posix bench/protobuf/run.php --duration="${BENCH_DURATION:-10}" --rounds="${BENCH_HTTP_ROUNDS:-3}"
echo
echo "== a hot set under churn, readers borrowing and copying (php-fpm)"
/usr/bin/php8.2 -n -d extension=posix bench/eviction/run.php --rounds="${BENCH_ROUNDS:-3}" --seconds="${BENCH_EVICTION_SECONDS:-5}"
echo
echo "== engine overhead (Zend/bench.php)"
/usr/bin/php8.2 -n bench/zend/run.php --runs="${BENCH_ZEND_RUNS:-30}"
echo
echo "== class-linked hook: a request that links many classes (php-fpm under callgrind)"
/usr/bin/php8.2 -n -d extension=posix bench/zend/classes.php
echo
echo "== what Resident costs every request (php-cgi -T under callgrind)"
/usr/bin/php8.2 -n bench/cost/run.php
echo
echo "== a kept 45-object app: eager vs lazy fetch (php-cgi -T under callgrind)"
/usr/bin/php8.2 -n bench/lazy/run.php --rounds="${BENCH_ROUNDS:-5}"
echo
echo "== a Slim 4 skeleton-shaped app: php-fpm, preload, Resident kept-app, worker mode (nginx + php-fpm + wrk, callgrind)"
/usr/bin/php8.2 -n -d extension=posix bench/slim/run.php --duration="${BENCH_SLIM_DURATION:-3}" --rounds="${BENCH_SLIM_ROUNDS:-5}" \
	--connections="${BENCH_SLIM_CONNECTIONS:-1,4,16}" --callgrind="${BENCH_SLIM_CALLGRIND:-1}"
if [ "${BENCH_LARAVEL:-1}" != 0 ]; then
	echo
	echo "== a Laravel 12 skeleton-shaped app: php-fpm, preload, worker mode (nginx + php-fpm + wrk, callgrind)"
	/usr/bin/php8.2 -n -d extension=posix bench/laravel/run.php --duration="${BENCH_SLIM_DURATION:-3}" --rounds="${BENCH_SLIM_ROUNDS:-5}" \
		--connections="${BENCH_SLIM_CONNECTIONS:-1,4,16}" --callgrind="${BENCH_SLIM_CALLGRIND:-1}"
fi
