#!/usr/bin/env bash
# A PHP minor that no bookworm-compatible source reaches, from Debian's binary
# packages: unpacks php<minor>-cli, -common, -mbstring and -dev, and the
# shared libraries they need (the C library and dynamic loader included:
# bookworm's are too old for them), without installing anything.
#
#   scripts/unpack-php-packages.sh 8.5|8.6
#
# 8.5 and 8.6 (a release candidate) are in Debian experimental, built against
# sid. Unpacks into $RESIDENT_CI_CACHE/php-<minor>-packages (RESIDENT_CI_CACHE
# defaults to /var/cache/resident-ci) and writes there:
#   bin/php         runs the packaged php through the packaged dynamic loader
#                   and libraries (so PHP_BINARY is this script, which child
#                   processes can run too), its extension_dir preset;
#   bin/php-config, bin/phpize   point at the unpacked headers and build files;
#   lib/php/build   the packaged run-tests.php and build files.
# An unpacked PHP is reused until the cache is cleared; the packages are
# found through an apt state of this script's own ($RESIDENT_CI_CACHE/apt/),
# which leaves the system's apt sources and indexes alone. No root needed.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 8.5|8.6" >&2; exit 2; }
MINOR=$1
case $MINOR in
  8.5 | 8.6) SUITES=(experimental sid) ; RELEASE=experimental ;;
  *) echo "unpack-php-packages: no Debian packages of PHP $MINOR are known (docs/ci.md)" >&2; exit 2 ;;
esac

die() {
  echo "unpack-php-packages: $*" >&2
  exit 1
}

# The Debian archive apt is configured with (the one serving bookworm).
ARCHIVE=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 2>/dev/null | awk '$2 == "bookworm" { print $1; exit }')
ARCHIVE=${ARCHIVE%/}
[ -n "$ARCHIVE" ] || die "apt has no source for Debian bookworm configured"

CACHE=${RESIDENT_CI_CACHE:-/var/cache/resident-ci}
PREFIX=$CACHE/php-$MINOR-packages
ROOT=$PREFIX/root
APT_DIR=$CACHE/apt/php$MINOR-packages
APT_OPTS=(
  -o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$APT_DIR/sources.list.d"
  -o "Dir::State::Lists=$APT_DIR/lists"
  -o "Dir::Cache=$APT_DIR/cache"
  -o "Dir::State::status=/dev/null"
  -o "APT::Architectures::=amd64"
  -o "APT::Default-Release=$RELEASE"
)

mkdir -p "$CACHE"
exec 9>"$CACHE/.php-$MINOR-packages.lock"
flock 9

if [ -f "$PREFIX/.resident-stamp" ] && [ -x "$PREFIX/bin/php" ] && "$PREFIX/bin/php" -n -v >/dev/null 2>&1; then
  echo "php-$MINOR-packages: unpacked packages reused at $PREFIX ($(head -1 "$PREFIX/.resident-stamp"))"
  exit 0
fi

start=$SECONDS
mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
cat >"$APT_DIR/sources.list.d/resident.sources" <<EOF
# Written by resident scripts/unpack-php-packages.sh: where php$MINOR's
# binary packages and the libraries they were built against come from.
Types: deb
URIs: $ARCHIVE
Suites: ${SUITES[*]}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
echo "unpack-php-packages: apt-get update (deb ${SUITES[*]}, in $APT_DIR)"
apt-get "${APT_OPTS[@]}" update -qq >/dev/null || apt-get "${APT_OPTS[@]}" update -qq >/dev/null \
  || die "apt-get update failed for ${SUITES[*]}"

# What the PHP packages depend on, followed through the shared-library
# packages only (lib*, zlib1g; not -dev): the rest (tzdata, ucf, debconf...)
# is configuration a php run with -n does not read.
declare -A seen=()
queue=("php$MINOR-cli" "php$MINOR-common" "php$MINOR-mbstring" "php$MINOR-dev")
packages=()
while [ ${#queue[@]} -gt 0 ]; do
  p=${queue[0]}
  queue=("${queue[@]:1}")
  [ -n "${seen[$p]:-}" ] && continue
  seen[$p]=1
  info=$(apt-cache "${APT_OPTS[@]}" show --no-all-versions "$p" 2>/dev/null) || die "$p is not in ${SUITES[*]}"
  packages+=("$p=$(sed -n 's/^Version: //p' <<<"$info" | head -1)")
  for d in $(sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' <<<"$info" | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:any//; s/ //g'); do
    case $d in
      lib*-dev) ;;
      lib* | zlib1g | "php$MINOR"-*) queue+=("$d") ;;
    esac
  done
done

dl=$(mktemp -d "$CACHE/download.XXXXXX")
trap 'rm -rf "$dl"' EXIT
# As root apt drops privileges to _apt for downloads.
if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
echo "unpack-php-packages: downloading ${#packages[@]} packages"
(cd "$dl" && { apt-get "${APT_OPTS[@]}" download -qq "${packages[@]}" || apt-get "${APT_OPTS[@]}" download -qq "${packages[@]}"; }) \
  || die "the mirror does not have every package of: ${packages[*]}"

rm -rf "$PREFIX"
mkdir -p "$ROOT" "$PREFIX/bin" "$PREFIX/lib/php"
for deb in "$dl"/*.deb; do
  dpkg-deb -x "$deb" "$ROOT"
done

loader=$(find "$ROOT" -name ld-linux-x86-64.so.2 \( -type f -o -type l \) | head -1)
[ -n "$loader" ] || die "no dynamic loader in the unpacked libc6"
api=$(basename "$(ls -d "$ROOT"/usr/include/php/[0-9]*)")
[ -n "$api" ] || die "no headers in php$MINOR-dev"
libs=$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/lib/x86_64-linux-gnu

# --library-path (not LD_LIBRARY_PATH): what php starts (a shell, another
# php through this script) keeps the system's libraries.
cat >"$PREFIX/bin/php" <<EOF
#!/bin/sh
# PHP $MINOR from Debian's packages, run by the dynamic loader and libraries
# it was built against (written by scripts/unpack-php-packages.sh).
exec '$loader' --library-path '$libs' --argv0 "\$0" '$ROOT/usr/bin/php$MINOR' -d 'extension_dir=$ROOT/usr/lib/php/$api' "\$@"
EOF
sed "s#^prefix=.*#prefix=\"$ROOT/usr\"#" "$ROOT/usr/bin/php-config$MINOR" >"$PREFIX/bin/php-config"
# phpize takes the build files from here and autoconf's and libtool's
# macros from the system's (php8.2-dev's dependencies).
sed -e "s#^phpdir=.*#phpdir=\"$ROOT/usr/lib/php/$api/build\"#" \
  -e "s#^includedir=.*#includedir=\"$ROOT/usr/include/php/$api\"#" \
  "$ROOT/usr/bin/phpize$MINOR" >"$PREFIX/bin/phpize"
chmod 755 "$PREFIX/bin/php" "$PREFIX/bin/php-config" "$PREFIX/bin/phpize"
ln -s "$ROOT/usr/lib/php/$api/build" "$PREFIX/lib/php/build"

out=$("$PREFIX/bin/php" -n -d extension=posix -d extension=mbstring -r 'echo PHP_VERSION, " ", function_exists("pcntl_fork") && function_exists("posix_kill") && function_exists("mb_strlen") ? "ok" : "missing";') \
  || die "$PREFIX/bin/php does not run"
[[ $out == "$MINOR".*" ok" ]] || die "$PREFIX/bin/php: expected PHP $MINOR with pcntl, posix and mbstring, got: $out"
[ -f "$PREFIX/lib/php/build/run-tests.php" ] || die "run-tests.php missing from php$MINOR-dev"
{ echo "php ${out% ok}"; printf '%s\n' "${packages[@]}"; } >"$PREFIX/.resident-stamp"
echo "php-$MINOR-packages: PHP ${out% ok} unpacked at $PREFIX in $((SECONDS - start)) s"
