#!/usr/bin/env bash
# Runs the test passes and prints one summary line per pass:
#   <pass>: N passed, N failed[, N skipped]
# Usage: scripts/test.sh all|quick|<pass name>...
# Exits non-zero if any pass failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

PHP82=${PHP82:-/usr/bin/php8.2}
EXT82=$root/build/php-8.2/modules/resident.so
RUN_TESTS82=/usr/lib/php/$("$PHP82" -r 'echo basename(PHP_EXTENSION_DIR);')/build/run-tests.php
CI_CACHE=${RESIDENT_CI_CACHE:-/var/cache/resident-ci}
JOBS=${TEST_JOBS:-$(nproc)}

summary=()
failed=0

record() { # name passed failed skipped
	local line="$1: $2 passed, $3 failed"
	[ "${4:-0}" != 0 ] && line="$line, $4 skipped"
	summary+=("$line")
	[ "$3" != 0 ] && failed=1
	echo "== $line"
}

stage() { # name command...
	local name=$1
	shift
	local start=$SECONDS
	echo "== $name"
	"$@"
	echo "== $name took $((SECONDS - start)) s"
}

# The committed arginfo must come from the committed stub (gen_stub.php
# stamps the stub's sha1 into the header).
stubs() {
	local stub stale=0 fresh=0
	for stub in resident compat; do
		if [ "$(sha1sum src/api/$stub.stub.php | cut -d' ' -f1)" = "$(sed -n 's/.*Stub hash: \([0-9a-f]*\).*/\1/p' src/api/${stub}_arginfo.h)" ]; then
			fresh=$((fresh + 1))
		else
			echo "${stub}_arginfo.h is stale: run make stubs"
			stale=$((stale + 1))
		fi
	done
	record "arginfo generated from the stubs" $fresh $stale
}

# PHP_VERSION_ID guards: every branch compiled by a PHP that CI builds
# (PHP 8.3's by 8.2's or 8.4's: scripts/check-version-guards.sh).
version_guards() {
	local out p f
	out=$(scripts/check-version-guards.sh 2>&1)
	echo "$out" | grep -v '^version guards: ' || true
	p=$(echo "$out" | sed -n 's/^version guards: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^version guards: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "PHP_VERSION_ID guards compiled by a PHP that CI builds" "$p" "$f"
}

store_unit() {
	local out
	out=$(build/test_store 2>&1)
	local rc=$?
	echo "$out" | grep -v '^store: ' || true
	local line
	line=$(echo "$out" | grep 'store unit tests:' | tail -1)
	local p f
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	[ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
	record "store unit tests (C)" "$p" "$f"
	store_fuzz_replay
}

# The store fuzzer's committed corpus and regression inputs (tests/fuzz/),
# replayed through its model checks by a plain build of the harness (no
# libFuzzer, no sanitizer: the reliability and asan passes add those).
store_fuzz_replay() {
	local inputs=() f n=0 bad=0
	for f in tests/fuzz/corpus/* tests/fuzz/regressions/*; do
		case $f in *.md | *'*') continue ;; esac
		inputs+=("$f")
	done
	mkdir -p build
	if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -g -DSTORE_FUZZ_MAIN src/store/*.c tests/fuzz/store_fuzz.c \
		-o build/store_fuzz_replay -lpthread; then
		record "store fuzzer corpus and regressions replayed (C)" 0 1
		return
	fi
	# One process per input: a failure (abort) names its input.
	for f in "${inputs[@]}"; do
		if build/store_fuzz_replay "$f" >/dev/null 2>"build/store_fuzz_replay.err"; then
			n=$((n + 1))
		else
			echo "FAIL $f:"
			head -20 build/store_fuzz_replay.err
			bad=$((bad + 1))
		fi
	done
	rm -f build/store_fuzz_replay.err
	record "store fuzzer corpus and regressions replayed (C)" "$n" "$bad"
}

# run_phpt <pass name> <php binary> <run-tests.php> <extension .so> [run-tests args...]
# PHPT_RUNNER: the PHP that runs run-tests.php itself (default: the one tested).
run_phpt() {
	local name=$1 php=$2 runner=$3 so=$4
	shift 4
	local log copy
	log=$(mktemp)
	# run-tests.php writes run-test-info.php next to itself: a copy of it in
	# build/ runs as any user (the packaged one's directory is root's) and in
	# two checkouts at once.
	copy=build/run-tests/$(printf '%s' "$runner" | sha1sum | cut -c1-12)
	mkdir -p "$copy" && cp "$runner" "$copy/run-tests.php" && runner=$copy/run-tests.php
	TEST_PHP_EXECUTABLE=$php NO_INTERACTION=1 REPORT_EXIT_STATUS=1 \
		"${PHPT_RUNNER:-$php}" -n "$runner" -n -q --no-color --show-diff -j"$JOBS" \
		-d extension="$so" "$@" "${PHPT_DIR:-tests/phpt}" 2>&1 | tr '\r' '\n' >"$log"
	# Failures with their diffs, then the runner's own summary.
	grep -E '^(FAIL|LEAK|BORK|SKIP)|^[0-9]+[+-] |^TEST [0-9]+/|Tests (passed|failed|skipped)|LEAK|Termsig' "$log" | grep -v '^TEST ' | head -200
	local p f s
	p=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
	f=$(sed -n 's/^Tests failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
	s=$(sed -n 's/^Tests skipped *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
	local leaks borks
	leaks=$(grep -c '^LEAK' "$log" || true)
	borks=$(grep -c '^BORK' "$log" || true)
	[ -z "$p" ] && { p=0; f=1; tail -30 "$log"; }
	f=$(( ${f:-0} + leaks + borks ))
	record "$name" "$p" "$f" "${s:-0}"
	rm -f "$log"
}

phpt_82() {
	run_phpt "phpt php-8.2 (release)" "$PHP82" "$RUN_TESTS82" "$EXT82"
}

# UserCache\Cache against the ext-user_cache proposal's stub, ini and tests
# (docs/user-cache.md): tests/phpt/usercache alone. The phpt passes run it
# too, with the rest of tests/phpt.
usercache() {
	PHPT_DIR=tests/phpt/usercache run_phpt "UserCache\\Cache, the ext-user_cache proposal (php-8.2)" "$PHP82" "$RUN_TESTS82" "$EXT82"
}

# opcache.file_update_protection=0: a test's script is cached although
# run-tests wrote it a moment ago, so its classes are OPcache's (immutable),
# as in production (value/shape_cache.c keeps their shapes otherwise).
phpt_82_opcache() {
	local opcache
	opcache=$("$PHP82" -r 'echo PHP_EXTENSION_DIR;')/opcache.so
	run_phpt "phpt php-8.2 (opcache + tracing JIT)" "$PHP82" "$RUN_TESTS82" "$EXT82" \
		-d zend_extension="$opcache" -d opcache.enable_cli=1 -d opcache.jit=tracing \
		-d opcache.jit_buffer_size=64M -d opcache.protect_memory=1 -d opcache.file_update_protection=0
}

phpt_82_valgrind() {
	# PCRE's JIT code reads memory valgrind cannot follow (false positives).
	run_phpt "phpt php-8.2 (valgrind, USE_ZEND_ALLOC=0)" "$PHP82" "$RUN_TESTS82" "$EXT82" -m -d pcre.jit=0
}

# run_fpm <pass name> <php cli> <php-fpm> <resident.so>
run_fpm() {
	local name=$1 php=$2 fpm=$3 so=$4
	local out posix=()
	"$php" -n -r 'exit(extension_loaded("posix") ? 0 : 1);' || posix=(-d extension=posix)
	out=$("$php" -n "${posix[@]}" tests/fpm/run.php "$fpm" "$so" 2>&1)
	echo "$out" | grep -v '^PASS' || true
	local p f
	p=$(echo "$out" | sed -n 's/^fpm integration: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^fpm integration: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "$name" "$p" "$f"
}

fpm_82() {
	run_fpm "php-fpm integration (php-8.2)" "$PHP82" /usr/sbin/php-fpm8.2 "$EXT82"
}

fpm_84() { # nts|zts
	local variant=${1:-nts}
	local prefix=$CI_CACHE/php-8.4-debug-$variant
	if ! debug_build 8.4 "$variant"; then
		record "php-fpm integration (php-8.4 debug $variant)" 0 1
		return
	fi
	run_fpm "php-fpm integration (php-8.4 debug $variant)" "$prefix/bin/php" "$prefix/sbin/php-fpm" \
		"$root/build/php-8.4-debug-$variant/modules/resident.so"
}

# debug_build <minor> <nts|zts|asan>: the PHP (scripts/build-php-debug.sh,
# cached in $CI_CACHE) and the extension built against it into
# build/php-<minor>-debug-<variant>.
debug_build() {
	local minor=$1 variant=$2
	local prefix=$CI_CACHE/php-$minor-debug-$variant
	scripts/build-php-debug.sh "$minor" "$variant" || return 1
	if [ "$variant" = asan ]; then
		CC=clang CFLAGS="$ASAN_CFLAGS" LDFLAGS="$ASAN_LDFLAGS" \
			scripts/build-ext.sh "$prefix/bin/php-config" "build/php-$minor-debug-$variant" >/dev/null || return 1
	else
		scripts/build-ext.sh "$prefix/bin/php-config" "build/php-$minor-debug-$variant" >/dev/null || return 1
	fi
}

# package_build <minor>: PHP from Debian's binary packages
# (scripts/unpack-php-packages.sh, cached in $CI_CACHE) and the extension
# built against their headers into build/php-<minor>-packages.
package_build() {
	local minor=$1
	scripts/unpack-php-packages.sh "$minor" || return 1
	scripts/build-ext.sh "$CI_CACHE/php-$minor-packages/bin/php-config" "build/php-$minor-packages" >/dev/null || return 1
}

phpt_84() { # nts|zts
	local variant=$1
	local prefix=$CI_CACHE/php-8.4-debug-$variant
	if ! debug_build 8.4 "$variant"; then
		record "phpt php-8.4 debug $variant" 0 1
		return
	fi
	local extra=()
	if [ "$variant" = nts ]; then
		# The JIT on the debug build too (opcache is a shared module there);
		# scripts cached as soon as written, as in phpt_82_opcache.
		extra=(-d zend_extension=opcache -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M
			-d opcache.file_update_protection=0)
	fi
	run_phpt "phpt php-8.4 debug $variant" "$prefix/bin/php" "$prefix/lib/php/build/run-tests.php" \
		"$root/build/php-8.4-debug-$variant/modules/resident.so" "${extra[@]}"
}

# PHP 8.2 ZTS: Debian's php8.2 is NTS only, so a debug ZTS build of its source.
phpt_82_zts() {
	local prefix=$CI_CACHE/php-8.2-debug-zts
	if ! debug_build 8.2 zts; then
		record "phpt php-8.2 debug zts" 0 1
		return
	fi
	run_phpt "phpt php-8.2 debug zts" "$prefix/bin/php" "$prefix/lib/php/build/run-tests.php" \
		"$root/build/php-8.2-debug-zts/modules/resident.so"
}

# PHP 8.5 from Debian experimental's packages (release build, NTS): no source
# of it can be fetched here (docs/ci.md). posix and mbstring are shared
# modules there, loaded so that the tests needing them run.
phpt_85() {
	local prefix=$CI_CACHE/php-8.5-packages
	if ! package_build 8.5; then
		record "phpt php-8.5 (Debian experimental packages)" 0 1
		return
	fi
	run_phpt "phpt php-8.5 (Debian experimental packages)" "$prefix/bin/php" "$prefix/lib/php/build/run-tests.php" \
		"$root/build/php-8.5-packages/modules/resident.so" -d extension=posix -d extension=mbstring
}

# Every PHP the passes use, built or unpacked into $CI_CACHE up front, so
# that each pass's time is its own (a cached one is reused in a second).
php_builds() {
	local ok=0 bad=0 b start
	for b in "8.4 nts" "8.4 zts" "8.4 asan" "8.2 zts"; do
		start=$SECONDS
		# shellcheck disable=SC2086 # "<minor> <variant>"
		if scripts/build-php-debug.sh $b; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
		echo "== php $b took $((SECONDS - start)) s"
	done
	start=$SECONDS
	if scripts/unpack-php-packages.sh 8.5; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
	echo "== php 8.5 packages took $((SECONDS - start)) s"
	record "PHP builds and packages in $CI_CACHE" $ok $bad
}

# The sanitizer pass: PHP 8.4 debug NTS built by clang with AddressSanitizer
# and UBSan (scripts/build-php-debug.sh 8.4 asan), the extension built with
# the same flags; the PHPT suite (its pcntl tests included), the store's unit
# tests and the php-fpm integration tests run on it. USE_ZEND_ALLOC=0 puts
# every emalloc() under ASan and LeakSanitizer (detect_leaks=1): a block the
# extension leaks is a report. Every process writes its reports to a file of
# its own (log_path): one from a forked child or a php started by a test is
# counted too, whatever the test printed.
ASAN_CFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-sanitize=object-size -fno-omit-frame-pointer -DZEND_TRACK_ARENA_ALLOC"
ASAN_LDFLAGS="-fsanitize=address,undefined"
asan() {
	local prefix=$CI_CACHE/php-8.4-debug-asan so=$root/build/php-8.4-debug-asan/modules/resident.so
	local reports
	reports=$(mktemp -d)
	# One log_path for both: they share the runtime's report file, and the
	# option read last (UBSAN_OPTIONS) would name ASan's reports too.
	local -x ASAN_OPTIONS="detect_leaks=1:log_path=$reports/sanitizer:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1"
	local -x UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/sanitizer"
	local -x LSAN_OPTIONS="suppressions=$root/tests/asan/lsan-suppressions.txt:print_suppressions=0"
	local -x USE_ZEND_ALLOC=0 USE_TRACKED_ALLOC=1 ZEND_DONT_UNLOAD_MODULES=1 SKIP_ASAN=1 SKIP_PERF_SENSITIVE=1
	# ASan's frames are larger: PHP's own recursion (destroying a 10,000-deep
	# array in 007-errors) needs more than the default 8 MB of stack.
	local stack
	stack=$(ulimit -s)
	ulimit -s 65536
	if ! debug_build 8.4 asan; then
		record "asan: phpt php-8.4 debug nts (ASan + UBSan)" 0 1
		rm -rf "$reports"
		ulimit -s "$stack"
		return
	fi
	# The runner is Debian's PHP: only the tests run under the sanitizers.
	PHPT_RUNNER=$PHP82 run_phpt "asan: phpt php-8.4 debug nts (ASan + UBSan)" "$prefix/bin/php" \
		"$prefix/lib/php/build/run-tests.php" "$so"
	asan_reports "asan: reports from the phpt run" "$reports"

	mkdir -p build/asan
	# shellcheck disable=SC2086 # the flags are words
	if clang $ASAN_CFLAGS -std=c11 src/store/[a-z]*.c tests/store/test_store.c -o build/asan/test_store $ASAN_LDFLAGS -lpthread; then
		local out rc p f
		out=$(build/asan/test_store 2>&1)
		rc=$?
		echo "$out" | grep -v '^store: ' || true
		p=$(echo "$out" | sed -n 's/.*store unit tests: \([0-9]*\) passed.*/\1/p' | tail -1)
		f=$(echo "$out" | sed -n 's/.*store unit tests: [0-9]* passed, \([0-9]*\) failed.*/\1/p' | tail -1)
		[ -z "$p" ] && { p=0; f=1; }
		[ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
		record "asan: store unit tests (C)" "$p" "$f"
	else
		record "asan: store unit tests (C)" 0 1
	fi
	asan_reports "asan: reports from the store unit tests" "$reports"

	run_fpm "asan: php-fpm integration (php-8.4 debug nts)" "$prefix/bin/php" "$prefix/sbin/php-fpm" "$so"
	asan_reports "asan: reports from php-fpm and its workers" "$reports"
	rm -rf "$reports"
	ulimit -s "$stack"
}

# asan_reports <pass name> <directory>: each sanitizer report file in the
# directory is a failure; they are shown, then removed.
asan_reports() {
	local name=$1 dir=$2 f n=0
	for f in "$dir"/*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		echo "---- $f"
		head -60 "$f"
		rm -f "$f"
	done
	if [ $n -eq 0 ]; then record "$name" 1 0; else record "$name" 0 "$n"; fi
}

dashboard() {
	local out
	out=$("$PHP82" -n -d extension=dom tests/dashboard/run.php "$EXT82" 2>&1)
	echo "$out" | grep -v '^PASS' || true
	local p f
	p=$(echo "$out" | sed -n 's/^dashboard: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^dashboard: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "dashboard in headless Chromium (php-8.2)" "$p" "$f"
}

packaging() {
	local out
	out=$("$PHP82" tests/packaging/run.php 2>&1)
	echo "$out" | grep -v '^PASS' || true
	local p f
	p=$(echo "$out" | sed -n 's/^packaging: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^packaging: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "packaging: composer.json, Debian package (php-8.2)" "$p" "$f"
}

zts_threads() {
	local prefix=$CI_CACHE/php-8.4-debug-zts
	if ! debug_build 8.4 zts || ! tests/zts/run.sh "$prefix" "$root/build/php-8.4-debug-zts/modules/resident.so"; then
		record "zts threads (php-8.4 debug zts)" 0 1
		return
	fi
	record "zts threads (php-8.4 debug zts)" 1 0
}

# The examples in docs/*.md: each PHP example runs and its output is compared
# with the block after it (tests/docs/run.php).
docs() {
	local out
	out=$("$PHP82" -n tests/docs/run.php --php="$PHP82" --ext="$EXT82" 2>&1)
	echo "$out" | grep -v '^PASS' || true
	local p f s
	p=$(echo "$out" | sed -n 's/^docs: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^docs: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	s=$(echo "$out" | sed -n 's/^docs: .*, \([0-9]*\) skipped$/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "docs examples (php-8.2)" "$p" "$f" "${s:-0}"
}

# Resident\Tiered across two hosts: two php-fpm masters, each with its own
# named segment and bin/resident-invalidator, over one redis-server.
tiered() {
	local out
	out=$("$PHP82" -n -d extension=posix tests/tiered/run.php /usr/sbin/php-fpm8.2 "$EXT82" 2>&1)
	echo "$out" | grep -v '^PASS' || true
	local p f
	p=$(echo "$out" | sed -n 's/^tiered: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^tiered: [0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -z "$p" ] && { p=0; f=1; }
	record "two hosts over Redis: Resident\\Tiered (php-8.2)" "$p" "$f"
}

# The PHP library (lib/): its PHPUnit suites against the extension, and
# against the polyfill over APCu and over a PHP array. The three run at once:
# they spend most of their time asleep in expiry tests.
lib_phpunit() {
	local modes=(extension apcu array) names=("lib phpunit (extension)" "lib phpunit (polyfill over APCu)" "lib phpunit (polyfill over an array)")
	local i logs=() pids=()
	for i in "${!modes[@]}"; do
		logs[i]=$(mktemp)
		lib/tests/run.sh "${modes[i]}" >"${logs[i]}" 2>&1 &
		pids[i]=$!
	done
	for i in "${!modes[@]}"; do
		local rc=0
		wait "${pids[i]}" || rc=$?
		lib_phpunit_record "${names[i]}" "${logs[i]}" "$rc"
		rm -f "${logs[i]}"
	done
}

# lib_phpunit_record <pass name> <PHPUnit 9 output> <exit code>
lib_phpunit_record() {
	# Not "failed": record() sets the script's global of that name.
	local name=$1 log=$2 rc=$3 tests=0 bad=0 skipped=0 line field
	line=$(grep -E '^OK \([0-9]+ tests?|^Tests: [0-9]+' "$log" | tail -1)
	if [[ $line =~ ^OK\ \(([0-9]+)\ test ]]; then
		tests=${BASH_REMATCH[1]}
	elif [ -n "$line" ]; then
		tests=$(echo "$line" | sed -n 's/^Tests: \([0-9]*\).*/\1/p')
		for field in Errors Failures Risky; do
			bad=$((bad + $(echo "$line" | sed -n "s/.*$field: \([0-9]*\).*/\1/p" | grep . || echo 0)))
		done
		for field in Skipped Incomplete; do
			skipped=$((skipped + $(echo "$line" | sed -n "s/.*$field: \([0-9]*\).*/\1/p" | grep . || echo 0)))
		done
	fi
	if [ "$rc" != 0 ] || [ "$bad" != 0 ] || [ -z "$line" ]; then
		# What failed, from PHPUnit's report (after the progress dots).
		sed -n '/^There w[a-z]* [0-9]* /,$p' "$log" | head -150
		[ -z "$line" ] && tail -30 "$log"
		[ "$bad" = 0 ] && bad=1
	fi
	local passed=$((tests - bad - skipped))
	[ "$passed" -lt 0 ] && passed=0
	record "$name" "$passed" "$bad" "$skipped"
}

# Issue 9's suites (tests/reliability, tests/fuzz), each bounded in time and
# printing its figures and "<suite>: N passed, N failed": chaos (1,000
# SIGKILLs), independent workers on a named segment killed and restarted
# (30 s; override with RELIABILITY_WORKERS_SECONDS), bad input, hash
# flooding, pressure, php-fpm under wrk (30 s),
# the store's unit tests under ASan and UBSan, then the two fuzzers side by
# side, one per core (60 s each; override with RELIABILITY_FUZZ_SECONDS).
# About 3 minutes.
reliability() {
	local fuzz=${RELIABILITY_FUZZ_SECONDS:-60} posix=()
	"$PHP82" -n -r 'exit(extension_loaded("posix") ? 0 : 1);' || posix=(-d extension=posix)
	local php=("$PHP82" -n "${posix[@]}" -d extension="$EXT82" -d resident.enable_cli=1)
	reliability_suite "reliability: chaos (1,000 SIGKILLs)" chaos \
		"${php[@]}" -d resident.testing=1 -d resident.zero_copy=1 -d resident.memory=32M tests/reliability/chaos.php 1000
	local workers_seconds=${RELIABILITY_WORKERS_SECONDS:-30}
	reliability_suite "reliability: 4 independent workers on a named segment, SIGKILLed and restarted (${workers_seconds} s)" workers \
		"$PHP82" -n tests/reliability/workers.php "$workers_seconds" 4 "$EXT82"
	reliability_suite "reliability: bad input" "bad input" "${php[@]}" tests/reliability/bad_input.php
	reliability_suite "reliability: hash flooding (callgrind)" "hash flood" "$PHP82" -n tests/reliability/hash_flood.php "$EXT82"
	reliability_suite "reliability: pressure" pressure \
		"${php[@]}" -d resident.testing=1 -d resident.memory=16M tests/reliability/pressure.php
	reliability_suite "reliability: php-fpm under wrk (30 s)" "fpm wrk" "$PHP82" -n "${posix[@]}" tests/reliability/fpm_wrk.php 30 "$EXT82"
	# The store's unit tests again, under AddressSanitizer and UBSan.
	mkdir -p build/fuzz
	if clang -g -O1 -std=c11 -fsanitize=address,undefined -fno-sanitize-recover=undefined src/store/[a-z]*.c tests/store/test_store.c \
		-o build/fuzz/test_store_asan -lpthread; then
		reliability_suite "reliability: store unit tests under ASan and UBSan" "store unit tests" build/fuzz/test_store_asan
	else
		record "reliability: store unit tests under ASan and UBSan" 0 1
	fi
	local value_log store_log value_pid store_pid value_rc=0 store_rc=0 start=$SECONDS
	value_log=$(mktemp)
	store_log=$(mktemp)
	timeout 900 "${php[@]}" -d extension=mbstring -d resident.zero_copy=1 tests/reliability/value_fuzz.php "$fuzz" --seeds tests/fuzz/value-seeds.txt >"$value_log" 2>&1 &
	value_pid=$!
	timeout 900 tests/fuzz/run.sh "$fuzz" >"$store_log" 2>&1 &
	store_pid=$!
	wait "$value_pid" || value_rc=$?
	wait "$store_pid" || store_rc=$?
	echo "== the two fuzzers took $((SECONDS - start)) s"
	reliability_record "reliability: value fuzzer ($fuzz s)" "value fuzz" "$(cat "$value_log")" "$value_rc"
	reliability_record "reliability: store fuzzer (libFuzzer, $fuzz s)" "store fuzz" "$(cat "$store_log")" "$store_rc"
	rm -f "$value_log" "$store_log"
}

# reliability_suite <pass name> <prefix of its summary line> command...
reliability_suite() {
	local name=$1 prefix=$2 out rc start=$SECONDS
	shift 2
	out=$(timeout 900 "$@" 2>&1)
	rc=$?
	echo "== $name took $((SECONDS - start)) s"
	reliability_record "$name" "$prefix" "$out" "$rc"
}

# reliability_record <pass name> <prefix of its summary line> <output> <exit code>
reliability_record() {
	local name=$1 prefix=$2 out=$3 rc=$4 p f shown
	# Its failures first (the seed or input to replay), its figures last.
	shown=$(echo "$out" | grep -av '^PASS')
	if [ "$(echo "$shown" | wc -l)" -gt 100 ]; then
		echo "$shown" | head -80
		echo "[...]"
		echo "$shown" | tail -8
	else
		echo "$shown"
	fi
	p=$(echo "$out" | sed -n "s/^$prefix: \([0-9]*\) passed.*/\1/p" | tail -1)
	f=$(echo "$out" | sed -n "s/^$prefix: [0-9]* passed, \([0-9]*\) failed.*/\1/p" | tail -1)
	[ -z "$p" ] && { p=0; f=1; }
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	record "$name" "$p" "$f"
}

passes=("$@")
[ ${#passes[@]} -eq 0 ] && passes=(all)
case "${passes[0]}" in
	all) passes=(php_builds stubs version_guards store_unit usercache phpt_82 phpt_82_opcache phpt_82_valgrind phpt_82_zts fpm_82 dashboard packaging docs phpt_84_nts phpt_84_zts phpt_85 fpm_84 fpm_84_zts zts_threads asan lib_phpunit tiered reliability) ;;
	quick) passes=(stubs version_guards store_unit phpt_82) ;;
esac

total_start=$SECONDS
for p in "${passes[@]}"; do
	case "$p" in
		phpt_84_nts) stage "$p" phpt_84 nts ;;
		phpt_84_zts) stage "$p" phpt_84 zts ;;
		fpm_84_zts) stage "$p" fpm_84 zts ;;
		*) stage "$p" "$p" ;;
	esac
done

echo
echo "Summary ($((SECONDS - total_start)) s):"
for line in "${summary[@]}"; do
	echo "  $line"
done
exit $failed
