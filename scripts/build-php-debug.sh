#!/usr/bin/env bash
# Builds a debug PHP 8.4 (NTS and/or ZTS) from Debian trixie's orig tarball,
# for CI on Debian bookworm (run as root).
#
#   scripts/build-php-debug.sh nts|zts|all
#
# Installs into $RESIDENT_CI_CACHE/php-8.4-debug-<variant>
# (RESIDENT_CI_CACHE defaults to /var/cache/resident-ci). A build whose stamp
# file ($PREFIX/.resident-build-stamp) matches the version and configure flags
# is reused. The source tarball is kept in $RESIDENT_CI_CACHE/src, the build
# log in $RESIDENT_CI_CACHE/logs; the build tree is removed afterwards.
# RESIDENT_CI_JOBS sets make's parallelism (default: nproc).
set -euo pipefail

PHP_SRC_PKG=php8.4
# The version built is trixie's current one: Debian's Sources index lists
# only the latest upload of a suite, so a pinned version stops being found
# when a point release lands. Mirrors can lag the index the other way (the
# index names a version whose files are not there yet): then the known
# version below is fetched from the pool by URL and checked against these
# hashes. Once fetched, a tarball and its .dsc stay in the cache and that
# version is built until the cache is cleared (set_version).
KNOWN_DEB_VERSION=8.4.24-1~deb13u1
KNOWN_DSC_SHA256=fd84ce153abc1af23514100a25d04acd3c728f5c4b5c30c3e1a0788ef9c780eb
KNOWN_ORIG_SHA256=e127be09a8506f4327c5cfa78a614b00d210714484ec215ce0011b4a03c00731
# The Debian archive apt is configured with (the one serving bookworm's
# packages): the trixie source entry and the pool fallback use it too.
debian_archive() {
  local uri
  uri=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 2>/dev/null | awk '$2 == "bookworm" { print $1; exit }')
  echo "${uri%/}"
}
ARCHIVE=$(debian_archive)
[ -n "$ARCHIVE" ] || { echo "build-php-debug: apt has no source for Debian bookworm configured" >&2; exit 1; }
POOL=$ARCHIVE/pool/main/p/$PHP_SRC_PKG
PHP_DEB_VERSION=
PHP_UPSTREAM_VERSION=
PHP_ORIG_TARBALL=
PHP_DSC=

CACHE=${RESIDENT_CI_CACHE:-/var/cache/resident-ci}
SRC_DIR=$CACHE/src
LOG_DIR=$CACHE/logs
JOBS=${RESIDENT_CI_JOBS:-$(nproc)}
TRIXIE_SRC_LIST=/etc/apt/sources.list.d/resident-trixie-src.sources

BUILD_DEPS=(
  build-essential autoconf bison re2c pkg-config xz-utils
  libxml2-dev libsqlite3-dev zlib1g-dev valgrind
)

usage() {
  echo "usage: $0 nts|zts|all" >&2
  exit 2
}

[ $# -eq 1 ] || usage
case $1 in
  nts) VARIANTS=(nts) ;;
  zts) VARIANTS=(zts) ;;
  all) VARIANTS=(nts zts) ;;
  *) usage ;;
esac

CLEANUP=()
cleanup() {
  local d
  for d in "${CLEANUP[@]}"; do
    rm -rf "$d"
  done
}
trap cleanup EXIT

die() {
  echo "build-php-debug: $*" >&2
  exit 1
}

configure_flags() { # variant prefix
  local variant=$1 prefix=$2
  local flags=(
    "--prefix=$prefix"
    "--with-config-file-path=$prefix/etc"
    "--with-config-file-scan-dir=$prefix/etc/conf.d"
    --enable-debug
    --disable-all
    --enable-opcache
    --enable-fpm
    --enable-pcntl
    --enable-posix
    --enable-embed=shared
    --with-zlib=no
    --enable-session
    --enable-tokenizer
    --enable-ctype
    --enable-filter
    --with-pcre-jit
    --enable-sockets
    --enable-mbstring
    --disable-mbregex
    --with-libxml
    --enable-dom
    --enable-xml
    --enable-simplexml
    --enable-phar=no
    --with-valgrind
  )
  if [ "$variant" = zts ]; then
    flags+=(--enable-zts)
  fi
  printf '%s\n' "${flags[@]}"
}

need_root() {
  [ "$(id -u)" -eq 0 ] || die "$* (run as root)"
}

install_build_deps() {
  local missing=() p
  for p in "${BUILD_DEPS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  need_root "missing build dependencies: ${missing[*]}"
  echo "build-php-debug: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || apt-get update -qq
  # The mirror occasionally fails one download; a second attempt succeeds.
  apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The sha256 the .dsc gives for the orig tarball: apt checked the .dsc
# against the signed Sources index when it downloaded them; this catches a
# truncated or corrupted copy in the cache.
tarball_ok() { # dsc
  local dsc=$1 sum
  [ -f "$dsc" ] && [ -f "$SRC_DIR/$PHP_ORIG_TARBALL" ] || return 1
  sum=$(awk -v f="$PHP_ORIG_TARBALL" '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on && $3 == f {print $1}' "$dsc")
  [ -n "$sum" ] && echo "$sum  $SRC_DIR/$PHP_ORIG_TARBALL" | sha256sum -c --status -
}

use_version() { # debian version
  PHP_DEB_VERSION=$1
  PHP_UPSTREAM_VERSION=${1#*:}
  PHP_UPSTREAM_VERSION=${PHP_UPSTREAM_VERSION%-*}
  PHP_ORIG_TARBALL=${PHP_SRC_PKG}_${PHP_UPSTREAM_VERSION}.orig.tar.xz
  PHP_DSC=${PHP_SRC_PKG}_${1#*:}.dsc
}

# Source-only entry for trixie: binary packages still come from bookworm only.
add_trixie_deb_src() {
  [ -f "$TRIXIE_SRC_LIST" ] && return 0
  need_root "cannot add $TRIXIE_SRC_LIST"
  cat > "$TRIXIE_SRC_LIST" <<EOF
# Added by resident scripts/build-php-debug.sh: source packages only, so that
# \`apt-get source php8.4\` works. Binary packages keep coming from bookworm.
Types: deb-src
URIs: $ARCHIVE
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

# A scratch directory in the cache that apt can write to (it drops
# privileges to _apt for downloads), removed on exit.
download_dir() {
  local dl
  dl=$(mktemp -d "$SRC_DIR/download.XXXXXX")
  CLEANUP+=("$dl")
  if id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
  DL=$dl
}

# Trixie's current version through apt, which checks the files against the
# signed Sources index.
fetch_current() {
  local v dl
  echo "build-php-debug: apt-get update (for trixie deb-src)"
  apt-get update -qq || apt-get update -qq || return 1
  v=$(apt-cache showsrc "$PHP_SRC_PKG" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
  [ -n "$v" ] || { echo "build-php-debug: trixie lists no source package $PHP_SRC_PKG" >&2; return 1; }
  use_version "$v"
  download_dir
  dl=$DL
  echo "build-php-debug: downloading source $PHP_SRC_PKG=$PHP_DEB_VERSION"
  (cd "$dl" && apt-get source -qq --download-only "$PHP_SRC_PKG=$PHP_DEB_VERSION") \
    || (cd "$dl" && apt-get source -qq --download-only "$PHP_SRC_PKG=$PHP_DEB_VERSION") \
    || return 1
  [ -f "$dl/$PHP_ORIG_TARBALL" ] && [ -f "$dl/$PHP_DSC" ] || return 1
  mv "$dl/$PHP_ORIG_TARBALL" "$dl/$PHP_DSC" "$SRC_DIR/"
}

# The known version, from the pool by URL, checked against the pinned hashes.
fetch_known() {
  use_version "$KNOWN_DEB_VERSION"
  echo "build-php-debug: downloading $PHP_DSC and $PHP_ORIG_TARBALL from $POOL"
  local f sum dl
  download_dir
  dl=$DL
  for f in "$PHP_DSC:$KNOWN_DSC_SHA256" "$PHP_ORIG_TARBALL:$KNOWN_ORIG_SHA256"; do
    sum=${f##*:}
    f=${f%:*}
    /usr/lib/apt/apt-helper -qq download-file "$POOL/$f" "$dl/$f" "SHA256:$sum" \
      || /usr/lib/apt/apt-helper -qq download-file "$POOL/$f" "$dl/$f" "SHA256:$sum" \
      || die "cannot download $POOL/$f"
  done
  mv "$dl/$PHP_DSC" "$dl/$PHP_ORIG_TARBALL" "$SRC_DIR/"
}

# Picks the version to build and makes sure its source is in the cache:
# the newest one cached whole, else trixie's current, else the known one.
set_version() {
  local dsc v
  mkdir -p "$SRC_DIR"
  # Serialise with a concurrent run (e.g. nts and zts started together).
  exec 8>"$SRC_DIR/.lock"
  flock 8
  for dsc in $(ls -1 "$SRC_DIR"/${PHP_SRC_PKG}_*.dsc 2>/dev/null | sort -V -r); do
    v=$(sed -n 's/^Version: //p' "$dsc")
    [ -n "$v" ] || continue
    use_version "$v"
    if tarball_ok "$dsc"; then
      exec 8>&-
      return 0
    fi
  done
  need_root "no $PHP_SRC_PKG source in $SRC_DIR"
  add_trixie_deb_src
  if ! fetch_current; then
    echo "build-php-debug: trixie's current $PHP_SRC_PKG cannot be downloaded; using $KNOWN_DEB_VERSION"
    fetch_known
  fi
  tarball_ok "$SRC_DIR/$PHP_DSC" || die "$SRC_DIR/$PHP_ORIG_TARBALL does not match the sha256 in $PHP_DSC"
  exec 8>&-
}

# Runs a command with its output appended to $LOG; on failure shows the tail.
logged() {
  if ! "$@" >>"$LOG" 2>&1; then
    echo "build-php-debug: '$*' failed; last lines of $LOG:" >&2
    tail -n 60 "$LOG" >&2
    exit 1
  fi
}

verify_install() { # variant prefix
  local variant=$1 prefix=$2 tag out
  if [ "$variant" = zts ]; then tag="ZTS DEBUG"; else tag="NTS DEBUG"; fi
  out=$("$prefix/bin/php" -v) || die "$prefix/bin/php -v failed"
  grep -qF "($tag)" <<<"$out" || die "$prefix/bin/php -v does not say $tag: $out"
  out=$("$prefix/bin/php" -d zend_extension=opcache -m) || die "php -d zend_extension=opcache -m failed"
  grep -qxF "Zend OPcache" <<<"$out" || die "opcache does not load: $out"
  local f
  for f in bin/phpize bin/php-config sbin/php-fpm lib/php/build/run-tests.php; do
    [ -e "$prefix/$f" ] || die "$prefix/$f missing"
  done
  find "$prefix/lib" -name libphp.so | grep -q . || die "libphp.so missing under $prefix/lib"
}

build_variant() { # variant
  local variant=$1
  local name=php-8.4-debug-$variant
  local prefix=$CACHE/$name
  local stamp_file=$prefix/.resident-build-stamp
  local flags stamp
  mapfile -t flags < <(configure_flags "$variant" "$prefix")
  stamp=$(printf 'php %s (%s)\n' "$PHP_UPSTREAM_VERSION" "$PHP_DEB_VERSION"; printf '%s\n' "${flags[@]}")

  mkdir -p "$CACHE" "$LOG_DIR"
  exec 9>"$CACHE/.$name.lock"
  flock 9

  if [ -x "$prefix/bin/php" ] && [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ]; then
    echo "$name: cached build reused at $prefix"
    exec 9>&-
    return 0
  fi

  local start=$SECONDS
  install_build_deps

  LOG=$LOG_DIR/$name.log
  : >"$LOG"
  echo "build-php-debug: building $name (log: $LOG)"
  echo "build-php-debug: ./configure ${flags[*]}"

  local build
  build=$(mktemp -d "$CACHE/build-$variant.XXXXXX")
  CLEANUP+=("$build")
  tar -xf "$SRC_DIR/$PHP_ORIG_TARBALL" -C "$build" --strip-components=1
  [ -x "$build/configure" ] || die "no configure script in $PHP_ORIG_TARBALL"

  (
    cd "$build"
    logged ./configure "${flags[@]}"
    logged make -j"$JOBS"
    # A stale or half-installed tree must not leak into the new one.
    rm -rf "$prefix"
    logged make install
  )
  mkdir -p "$prefix/etc/conf.d"
  # phpize's build dir normally receives run-tests.php from `make install`.
  if [ ! -f "$prefix/lib/php/build/run-tests.php" ]; then
    install -D -m 644 "$build/run-tests.php" "$prefix/lib/php/build/run-tests.php"
  fi
  rm -rf "$build"

  verify_install "$variant" "$prefix"
  printf '%s\n' "$stamp" >"$stamp_file"
  echo "$name: built at $prefix in $((SECONDS - start)) s"
  exec 9>&-
}

set_version
for v in "${VARIANTS[@]}"; do
  build_variant "$v"
done
