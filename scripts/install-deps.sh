#!/bin/sh
# Installs the Debian packages echecs needs (Debian 12, as root). Quick when
# everything is there already: only missing packages are fetched.
#   scripts/install-deps.sh          build and run (server, engine, web client)
#   scripts/install-deps.sh test     also what the tests, benchmarks and the
#                                    Debian package build (and lintian) need
set -eu

RUNTIME="build-essential cmake ninja-build pkg-config git
  libcli11-dev libboost-dev libboost-system-dev nlohmann-json3-dev
  libsqlite3-dev libsqlitecpp-dev libpqxx-dev libsodium-dev libjemalloc-dev libicu-dev libhiredis-dev
  nodejs npm"
# clang builds the sanitizer stage against libstdc++ (no libc++); its ASan and
# UBSan runtimes are in libclang-rt-14-dev, which clang-14 does not pull in.
# The browser tests run in chromium-headless-shell (half the CPU of chromium
# headless, tests/e2e/lib.mjs); chromium for a look at a page with a window.
# redis-server and haproxy: the broker and the balancer of the cluster test
# (scripts/cluster-test.sh).
TEST="googletest libgtest-dev libgmock-dev libbenchmark-dev
  clang libfuzzer-14-dev libclang-rt-14-dev postgresql chromium chromium-headless-shell stockfish valgrind
  dpkg-dev debhelper lintian adduser systemd ccache redis-server haproxy"

want=$RUNTIME
[ "${1:-}" = test ] && want="$RUNTIME $TEST"

missing=""
for p in $want; do
    # nodejs may come with its own npm (one package): then npm is not needed.
    if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
    if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "missing Debian packages:$missing (run this script as root)" >&2
        exit 1
    fi
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
