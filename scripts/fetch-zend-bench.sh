#!/usr/bin/env bash
# Prints the path of Zend/bench.php from Debian's php8.2 source package,
# downloading it once (apt-get source, needs root for the deb-src entry)
# into $RESIDENT_CI_CACHE/src (default /var/cache/resident-ci/src).
set -euo pipefail
CACHE=${RESIDENT_CI_CACHE:-/var/cache/resident-ci}
OUT=$CACHE/src/php8.2-Zend-bench.php
if [ -s "$OUT" ]; then
  echo "$OUT"
  exit 0
fi
mkdir -p "$CACHE/src"
LIST=/etc/apt/sources.list.d/resident-bookworm-src.sources
if [ ! -f "$LIST" ]; then
  # The archive apt is configured with for bookworm (a mirror, a proxy),
  # never a host of our own choosing.
  uri=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME)' 2>/dev/null | awk '$2 == "bookworm" { print $1; exit }')
  if [ -z "$uri" ]; then
    echo "fetch-zend-bench.sh: apt has no source configured for bookworm" >&2
    exit 1
  fi
  cat >"$LIST" <<SOURCES
# Added by resident scripts/fetch-zend-bench.sh: source packages only, so that
# \`apt-get source php8.2\` works.
Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt-get update -qq >&2 || apt-get update -qq >&2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && (apt-get source -qq --download-only php8.2 || apt-get source -qq --download-only php8.2) >&2)
orig=$(ls "$tmp"/php8.2_*.orig.tar.* | head -1)
tar -xf "$orig" -C "$tmp" --wildcards '*/Zend/bench.php'
cp "$(find "$tmp" -path '*/Zend/bench.php' | head -1)" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$OUT"
