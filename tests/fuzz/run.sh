#!/usr/bin/env bash
# Builds the store-layer fuzzer (tests/fuzz/store_fuzz.c) with clang's
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer into build/fuzz/
# and runs it for SECONDS (default 60) on one core.
#
# It starts from the committed corpus (tests/fuzz/corpus/, read only) and
# keeps what it adds in build/fuzz/corpus (so coverage carries over from one
# run to the next on a machine). Before the run, every committed regression
# input (tests/fuzz/regressions/) and every input that crashed an earlier run
# here (build/fuzz/crashes/) is replayed: each must run clean. An input a run
# finds is left in build/fuzz/crashes/; once the bug is fixed it is committed
# to tests/fuzz/regressions/ (the store unit tests pass replays those and the
# corpus too, without libFuzzer: see scripts/test.sh store_unit).
#
#   tests/fuzz/run.sh [SECONDS]
# Prints its figures and "store fuzz: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
out=build/fuzz
corpus=$out/corpus
seeds=tests/fuzz/corpus
regressions=tests/fuzz/regressions
crashes=$out/crashes
mkdir -p "$corpus" "$crashes"

fail() {
	echo "FAIL $*"
	echo "store fuzz: 0 passed, 1 failed"
	exit 1
}

CLANG=${CLANG:-$(command -v clang || command -v clang-14 || true)}
[ -n "$CLANG" ] || fail "clang not found (scripts/install-deps.sh installs it)"

# Rebuild when a source is newer than the binary.
bin=$out/store_fuzz
if [ ! -x "$bin" ] || [ -n "$(find src/store tests/fuzz/store_fuzz.c -newer "$bin" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
	if ! "$CLANG" -g -O1 -std=gnu11 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		src/store/[a-z]*.c tests/fuzz/store_fuzz.c -o "$bin.tmp" -lpthread >"$out/build.log" 2>&1; then
		cat "$out/build.log"
		fail "the fuzzer does not build (libFuzzer comes with clang's libclang-rt-*-dev)"
	fi
	mv "$bin.tmp" "$bin"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failures=0
passed=0

# Earlier findings first: each must now run clean.
shopt -s nullglob
old=()
for f in "$regressions"/* "$crashes"/crash-* "$crashes"/timeout-* "$crashes"/oom-*; do
	[[ $f == *.md ]] || old+=("$f")
done
if [ ${#old[@]} -gt 0 ]; then
	if "$bin" -runs=0 "${old[@]}" >"$out/replay.log" 2>&1; then
		passed=$((passed + 1))
		echo "store fuzz: ${#old[@]} earlier finding(s) in $regressions and $crashes replay clean"
	else
		tail -40 "$out/replay.log"
		echo "FAIL an earlier finding in $regressions or $crashes still fails"
		failures=$((failures + 1))
	fi
fi

# The run itself. -fork would use more cores; one is enough in CI.
log=$out/run.log
start=$SECONDS
"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
	-print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$seeds" >"$log" 2>&1
rc=$?
took=$((SECONDS - start))

# libFuzzer's last status line: "#N DONE cov: C ft: F corp: S/B ..."
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
[ -z "$execs" ] && execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
new=$(ls "$crashes" | wc -l)

if [ $rc -ne 0 ] || grep -qE '^==[0-9]+==ERROR|runtime error:|^SUMMARY: |store_fuzz: ' "$log"; then
	grep -E 'store_fuzz: |ERROR|runtime error|SUMMARY|Test unit written|^    #[0-9]' "$log" | head -60
	echo "FAIL the fuzzer found a failure (exit $rc); the input is in $crashes (replay: $bin FILE; once fixed, commit it to $regressions)"
	failures=$((failures + 1))
else
	passed=$((passed + 1))
fi

echo "store fuzz: ${execs:-0} executions in $took s (${rate:-?}/s), coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?} (inputs/bytes; new ones in $corpus), $new finding(s) kept in $crashes"
echo "store fuzz: $passed passed, $failures failed"
[ $failures -eq 0 ]
