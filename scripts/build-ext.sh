#!/usr/bin/env bash
# Builds the extension out of tree for one PHP: build-ext.sh <php-config> <build-dir>
# The sources are copied into the build directory so phpize's output never
# lands in the checkout. Prints the path of resident.so.
set -euo pipefail
php_config=${1:-php-config8.2}
dir=${2:-build/php-8.2}
root=$(cd "$(dirname "$0")/.." && pwd)
phpize=$(dirname "$(command -v "$php_config")")/$(basename "$php_config" | sed 's/php-config/phpize/')
# A build directory of the layout before src/ (sources at its root) would
# let its stale headers shadow the current ones: start it afresh.
if [ -d "$dir/store" ] || [ -d "$dir/value" ]; then
  rm -rf "$dir"
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Sources deleted or moved in the checkout go from the build directory too.
if [ -d "$dir/src" ]; then
  (cd "$dir" && find src -type f \( -name '*.c' -o -name '*.h' \)) | while read -r f; do
    [ -e "$root/$f" ] || rm -f "$dir/$f"
  done
fi
# Copy only what the build needs; keep timestamps so make stays incremental.
(cd "$root" && tar -cf - config.m4 src) | (cd "$dir" && tar -xmf - --keep-newer-files 2>/dev/null || tar -xf -)
# An object whose dependency file names a header that is gone is built
# again (make would stop: no rule to make that header).
find "$dir/src" -name '*.dep' | while read -r dep; do
  for f in $(tr -d '\\:' <"$dep" | tr ' ' '\n' | grep "^$dir/src/"); do
    if [ ! -e "$f" ]; then
      rm -f "$dep" "${dep%.dep}.lo" "${dep%.dep}.o" "$(dirname "$dep")/.libs/$(basename "${dep%.dep}").o"
      break
    fi
  done
done
cd "$dir"
if [ ! -f configure ] || [ config.m4 -nt configure ]; then
  "$phpize" >/dev/null 2>&1
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
  ./configure --with-php-config="$(command -v "$php_config")" --enable-resident --enable-resident-werror >/dev/null
fi
make -j"$(nproc)" >/dev/null
echo "$dir/modules/resident.so"
