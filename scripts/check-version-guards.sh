#!/usr/bin/env bash
# Every branch of every PHP_VERSION_ID guard in src/ must be compiled by a
# PHP that CI builds (8.2, 8.4, 8.5: docs/ci.md). PHP 8.3 is reachable from
# no Debian suite: the code it would compile is checked by making sure that,
# at each guard, it takes the branch 8.2 or 8.4 takes (so that branch is
# compiled against the headers of a neighbouring version). A guard with a
# branch only 8.3, or only a PHP newer than 8.5, would take is reported.
#
#   scripts/check-version-guards.sh
# Prints "version guards: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

REACHABLE=(80200 80400 80500)
ALL=(80200 80300 80400 80500 80600)
CPP=${CPP:-cpp}

# Whether a guard's condition holds for one PHP_VERSION_ID (1 or 0).
holds() { # condition version
  printf '#if %s\nyes\n#else\nno\n#endif\n' "$1" | "$CPP" -P -DPHP_VERSION_ID="$2" - 2>/dev/null | grep -qx yes && echo 1 || echo 0
}

passed=0
failed=0
while IFS=: read -r file line text; do
  cond=$(sed -E 's/^[[:space:]]*#[[:space:]]*(el)?if[[:space:]]+//; s#/\*.*\*/##; s#//.*##' <<<"$text")
  declare -A seen=() compiled=()
  for v in "${ALL[@]}"; do
    seen[$(holds "$cond" "$v")]+=" $v"
  done
  for v in "${REACHABLE[@]}"; do
    compiled[$(holds "$cond" "$v")]=1
  done
  bad=""
  for value in "${!seen[@]}"; do
    [ -n "${compiled[$value]:-}" ] || bad="${seen[$value]}"
  done
  if [ -n "$bad" ]; then
    echo "FAIL $file:$line: #if $cond: the branch PHP_VERSION_ID$bad takes is compiled by no PHP that CI builds (${REACHABLE[*]})"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  unset seen compiled
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*(el)?if.*PHP_VERSION_ID' src --include='*.c' --include='*.h')

echo "version guards: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
