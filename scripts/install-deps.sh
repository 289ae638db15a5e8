#!/usr/bin/env bash
# Installs, on Debian (bookworm) as root, what building, testing, benchmarking
# and the demo need. Idempotent: installs only what is missing.
set -euo pipefail

PKGS=(
  build-essential autoconf pkg-config re2c bison
  php8.2-cli php8.2-cgi php8.2-dev php8.2-fpm php8.2-opcache php8.2-apcu php8.2-igbinary
  php8.2-xml php8.2-mbstring
  nginx wrk valgrind libfcgi-bin procps python3-prometheus-client chromium
  debhelper dpkg-dev
  php-nesbot-carbon php-google-protobuf protobuf-compiler php-slim
  phpunit php-psr-simple-cache php-psr-cache php-symfony-cache php-symfony-dependency-injection
  php-illuminate-cache php-illuminate-container php-illuminate-config
  redis-server php8.2-redis memcached php8.2-memcached
  composer unzip
  clang libclang-rt-14-dev
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run as root" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Services must not start on install (the tests and the demo start their own).
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq || apt-get update -qq
# The mirror occasionally fails one download; a second attempt succeeds.
apt-get install -y -qq --no-install-recommends "${missing[@]}" \
  || apt-get install -y -qq --no-install-recommends "${missing[@]}"
