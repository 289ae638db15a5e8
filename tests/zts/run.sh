#!/usr/bin/env bash
# ZTS thread test: builds tests/zts/harness.c against a ZTS PHP with the embed
# SAPI (libphp.so), then runs tests/zts/threads.php on 8 threads of one
# process, once copying values (resident.zero_copy=0) and once borrowing them
# (resident.zero_copy=1).
#
#   tests/zts/run.sh <php-prefix> <resident.so>
#   e.g. tests/zts/run.sh /var/cache/resident-ci/php-8.4-debug-zts build/php-8.4-debug-zts/modules/resident.so
#
# Environment: ZTS_THREADS (8), ZTS_REQUESTS (20), ZTS_OPS (2000),
# ZTS_KEYS (200), ZTS_TIMEOUT (120 s per run), ZTS_MEMORY (64M).
# Exits non-zero if the build or either run fails: a corrupted read, a
# request without its result line, a leak, assertion or PHP error reported
# on stderr, a crash or a timeout (deadlock).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 <php-prefix> <resident.so>" >&2
	exit 2
fi
prefix=$(cd "$1" && pwd)
so=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
php_config=$prefix/bin/php-config
threads=${ZTS_THREADS:-8}
requests=${ZTS_REQUESTS:-20}
ops=${ZTS_OPS:-2000}
keys=${ZTS_KEYS:-200}
timeout=${ZTS_TIMEOUT:-120}
memory=${ZTS_MEMORY:-64M}

[ -x "$php_config" ] || { echo "zts: no $php_config" >&2; exit 2; }
[ -f "$prefix/lib/libphp.so" ] || { echo "zts: no $prefix/lib/libphp.so (PHP built without --enable-embed=shared?)" >&2; exit 2; }
[ -f "$so" ] || { echo "zts: no $so" >&2; exit 2; }
if ! grep -q '^#define ZTS 1' "$prefix/include/php/main/php_config.h"; then
	echo "zts: $prefix is not a ZTS build" >&2
	exit 2
fi

mkdir -p "$root/build"
harness=$root/build/zts-harness
# PHP's headers as system headers: -Werror applies to the harness only.
includes=$("$php_config" --includes | sed 's/-I/-isystem /g')
# shellcheck disable=SC2086
cc -std=c11 -g -O1 -Wall -Wextra -Werror $includes \
	-o "$harness" "$here/harness.c" \
	-L"$prefix/lib" -lphp -Wl,-rpath,"$prefix/lib" -lpthread

failed=0
for zc in 0 1; do
	echo "== zts: resident.zero_copy=$zc, $threads threads x $requests requests x $ops operations"
	start=$SECONDS
	log=$(mktemp)
	rc=0
	"$harness" -w "$timeout" \
		-d "extension=$so" -d resident.enable_cli=1 -d "resident.memory=$memory" -d "resident.zero_copy=$zc" \
		-s "OPS=$ops" -s "KEYS=$keys" \
		"$here/threads.php" "$threads" "$requests" >"$log" 2>&1 || rc=$?
	cat "$log"
	# The harness scans its own stderr; this is a second look in case it
	# died before it could (a signal, for instance).
	if grep -qE 'memory leaks detected|Freeing 0x|Assertion|AddressSanitizer|runtime error:' "$log"; then
		echo "zts: leak or assertion reported" >&2
		[ "$rc" = 0 ] && rc=1
	fi
	if ! grep -q '^zts-harness: PASS' "$log"; then
		[ "$rc" = 0 ] && rc=1
	fi
	if [ "$rc" -gt 128 ]; then
		echo "zts: harness killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null || echo '?'))" >&2
	elif [ "$rc" = 2 ]; then
		echo "zts: deadlock/timeout" >&2
	fi
	echo "== zts: resident.zero_copy=$zc: $([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)") in $((SECONDS - start)) s"
	rm -f "$log"
	[ "$rc" = 0 ] || failed=1
done
exit $failed
