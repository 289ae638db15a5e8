#!/usr/bin/env bash
# Builds a debug PHP from Debian's source package, for CI on Debian bookworm.
#
#   scripts/build-php-debug.sh [8.2|8.4] nts|zts|asan|all
#
# 8.4 (the default) comes from trixie's php8.4 source package, 8.2 from
# bookworm's php8.2 (the source of the packages `make deps` installs).
# Variants: nts and zts are debug builds with valgrind support; asan is a
# debug NTS build by clang with AddressSanitizer and UndefinedBehaviorSanitizer
# (php-src's --enable-address-sanitizer --enable-undefined-sanitizer; valgrind
# support is left out, the two do not mix); all = nts and zts.
#
# Installs into $RESIDENT_CI_CACHE/php-<minor>-debug-<variant>
# (RESIDENT_CI_CACHE defaults to /var/cache/resident-ci). A build whose stamp
# file ($PREFIX/.resident-build-stamp) matches the version and configure flags
# is reused. The source tarball is kept in $RESIDENT_CI_CACHE/src, the build
# log in $RESIDENT_CI_CACHE/logs; the build tree is removed afterwards.
# RESIDENT_CI_JOBS sets make's parallelism (default: nproc).
#
# Root is needed only to install missing build dependencies: the source
# package is found through an apt state of this script's own
# ($RESIDENT_CI_CACHE/apt/<package>), which leaves the system's apt sources
# and indexes alone.
set -euo pipefail

usage() {
  echo "usage: $0 [8.2|8.4] nts|zts|asan|all" >&2
  exit 2
}

MINOR=8.4
case ${1:-} in
  8.*) MINOR=$1; shift ;;
esac
[ $# -eq 1 ] || usage
case $1 in
  nts) VARIANTS=(nts) ;;
  zts) VARIANTS=(zts) ;;
  asan) VARIANTS=(asan) ;;
  all) VARIANTS=(nts zts) ;;
  *) usage ;;
esac

PHP_SRC_PKG=php$MINOR
# Each minor: the suites whose Sources index lists its source package (the
# security suite first: it has the newest upload), and a known version with
# the sha256s of its .dsc and orig tarball. The version built is the newest
# one whose files the mirror has: Debian's Sources index lists only the
# latest upload of a suite, and mirrors can lag the index (it names a version
# whose files are not there yet). When no listed version can be downloaded,
# the known one is fetched from the pool by URL and checked against these
# hashes. Once fetched, a tarball and its .dsc stay in the cache and that
# version is built until the cache is cleared (set_version).
case $MINOR in
  8.2)
    SUITES=(bookworm-security bookworm)
    KNOWN_DEB_VERSION=8.2.32-1~deb12u1
    KNOWN_DSC_SHA256=2dd58aea6324c0d6bd3da32bb1b6e2c10a9cf201c2587a7f6dd1acff7cef52fe
    KNOWN_ORIG_SHA256=e02aa173c236c12791696254d607da680e6d5516f8f5c2339642de7c4f944bd2
    ;;
  8.4)
    SUITES=(trixie-security trixie)
    KNOWN_DEB_VERSION=8.4.24-1~deb13u1
    KNOWN_DSC_SHA256=fd84ce153abc1af23514100a25d04acd3c728f5c4b5c30c3e1a0788ef9c780eb
    KNOWN_ORIG_SHA256=e127be09a8506f4327c5cfa78a614b00d210714484ec215ce0011b4a03c00731
    ;;
  *)
    echo "build-php-debug: no Debian source package for PHP $MINOR is known (docs/ci.md)" >&2
    exit 2
    ;;
esac

# The Debian archives apt is configured with: the one serving bookworm's
# packages, and the security archive serving bookworm-security's (if any).
# The source entries and the pool fallback use them.
apt_uri() { # codename
  local uri
  uri=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 2>/dev/null | awk -v c="$1" '$2 == c { print $1; exit }')
  echo "${uri%/}"
}
ARCHIVE=$(apt_uri bookworm)
SECURITY_ARCHIVE=$(apt_uri bookworm-security)
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
APT_DIR=$CACHE/apt/$PHP_SRC_PKG
APT_OPTS=(
  -o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$APT_DIR/sources.list.d"
  -o "Dir::State::Lists=$APT_DIR/lists"
  -o "Dir::Cache=$APT_DIR/cache"
  -o "Dir::State::status=/dev/null"
)

BUILD_DEPS=(
  build-essential autoconf bison re2c pkg-config xz-utils
  libxml2-dev libsqlite3-dev zlib1g-dev valgrind
)
for v in "${VARIANTS[@]}"; do
  [ "$v" = asan ] && BUILD_DEPS+=(clang libclang-rt-14-dev)
done

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
  )
  case $variant in
    nts) flags+=(--with-valgrind) ;;
    zts) flags+=(--with-valgrind --enable-zts) ;;
    # php-src adds -fsanitize=address,undefined -fno-sanitize-recover=undefined
    # -fno-sanitize=object-size -fno-omit-frame-pointer -DZEND_TRACK_ARENA_ALLOC;
    # scripts/test.sh builds the extension with the same (asan_cflags).
    asan) flags+=(--enable-address-sanitizer --enable-undefined-sanitizer CC=clang CXX=clang++) ;;
  esac
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

# Source-only entries for this minor's suites, in this script's apt state.
write_apt_sources() {
  local suite uri entries=""
  mkdir -p "$APT_DIR/sources.list.d" "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
  for suite in "${SUITES[@]}"; do
    uri=$ARCHIVE
    if [[ $suite == *-security ]]; then
      uri=$SECURITY_ARCHIVE
      [ -n "$uri" ] || continue
    fi
    entries+="
Types: deb-src
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"
  done
  printf '# Written by resident scripts/build-php-debug.sh: where %s comes from.\n%s' \
    "$PHP_SRC_PKG" "$entries" >"$APT_DIR/sources.list.d/resident.sources"
}

# A scratch directory in the cache that apt can write to (as root it drops
# privileges to _apt for downloads), removed on exit.
download_dir() {
  local dl
  dl=$(mktemp -d "$SRC_DIR/download.XXXXXX")
  CLEANUP+=("$dl")
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dl"; fi
  DL=$dl
}

# One version's .dsc and orig tarball, at the URIs and with the sha256s the
# signed Sources index gives (the Debian packaging itself is not needed).
fetch_version() { # debian version
  local uris f line url sum dl
  use_version "$1"
  download_dir
  dl=$DL
  uris=$(cd "$dl" && apt-get "${APT_OPTS[@]}" source --print-uris -qq "$PHP_SRC_PKG=$PHP_DEB_VERSION" 2>/dev/null) || return 1
  for f in "$PHP_DSC" "$PHP_ORIG_TARBALL"; do
    line=$(awk -v f="$f" '$2 == f' <<<"$uris")
    [ -n "$line" ] || return 1
    url=$(cut -d"'" -f2 <<<"$line")
    sum=$(awk '{print $4}' <<<"$line")
    /usr/lib/apt/apt-helper -qq download-file "$url" "$dl/$f" "$sum" >/dev/null 2>&1 \
      || /usr/lib/apt/apt-helper -qq download-file "$url" "$dl/$f" "$sum" >/dev/null 2>&1 \
      || return 1
  done
  mv "$dl/$PHP_DSC" "$dl/$PHP_ORIG_TARBALL" "$SRC_DIR/"
}

# The newest version the suites list whose files can be downloaded.
fetch_current() {
  local v versions
  write_apt_sources
  echo "build-php-debug: apt-get update (deb-src ${SUITES[*]}, in $APT_DIR)"
  apt-get "${APT_OPTS[@]}" update -qq >/dev/null || apt-get "${APT_OPTS[@]}" update -qq >/dev/null || return 1
  versions=$(apt-cache "${APT_OPTS[@]}" showsrc "$PHP_SRC_PKG" 2>/dev/null | sed -n 's/^Version: //p' | sort -uVr)
  [ -n "$versions" ] || { echo "build-php-debug: ${SUITES[*]} list no source package $PHP_SRC_PKG" >&2; return 1; }
  for v in $versions; do
    echo "build-php-debug: downloading source $PHP_SRC_PKG=$v"
    fetch_version "$v" && return 0
    echo "build-php-debug: the mirror does not have $PHP_SRC_PKG=$v's files"
  done
  return 1
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
# the newest one cached whole, else the suites' newest downloadable, else the
# known one.
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
  if ! fetch_current; then
    echo "build-php-debug: no version ${SUITES[*]} list can be downloaded; using $KNOWN_DEB_VERSION"
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
  local name=php-$MINOR-debug-$variant
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
  build=$(mktemp -d "$CACHE/build-$MINOR-$variant.XXXXXX")
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
