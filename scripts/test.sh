#!/bin/sh
# The whole test suite, as `make test` and CI run it (Debian 12, as root).
# docs/TESTING.md says what each stage proves, how long it takes and how to
# replay a failure.
#
#   sh scripts/test.sh               every stage, in this order:
#     deps        install what is missing (scripts/install-deps.sh test)
#     package     a clean clone builds the Debian package (the release build
#                 and the web client, once), lintian checks it, its installed
#                 server is started as systemd starts it (scripts/package-test.sh)
#     web         the web client's unit tests
#     e2e         the browser tests in headless Chromium against the packaged
#                 server and client (desktop: every flow; phone: every page and
#                 the phone flows); they wait on the browser far more than they
#                 compute, so they run while the next stage compiles (at a
#                 lower priority), unless ECHECS_TEST_SERIAL=1
#     asan-build  everything, tests included, with Clang under ASan + UBSan
#     asan-tests  every C++ test (rules, command line, engine, solver, server,
#                 attacks, fuzz smoke) under ASan + UBSan
#     postgres    the storage tests against a throwaway PostgreSQL server
#     release     what only a release binary can show (the server out of
#                 descriptors), against the packaged binary
#   sh scripts/test.sh STAGE...      only those stages (each needs what the
#                                    stages before it built: see TESTING.md)
#
# Every stage prints its duration; a failed stage does not stop the next ones
# (the summary names the failed ones, the exit status is 1).
# A compiler cache (ccache, in $CCACHE_DIR, default /var/cache/echecs/ccache)
# and the build directories outside the clone make a second run quicker; a
# first run needs neither.
set -eu
cd "$(dirname "$0")/.."
SRC=$PWD
JOBS=${JOBS:-$(nproc)}
ASAN=${ECHECS_ASAN_BUILD:-$SRC/build-asan}
# The package's installed files (scratch root), kept for the later stages.
PKGROOT=${ECHECS_PACKAGE_ROOT:-$SRC/build-package}

ALL="deps package web e2e asan-build asan-tests postgres release"
STAGES=${*:-$ALL}
for s in $STAGES; do
    case " $ALL " in *" $s "*) ;; *) echo "unknown stage '$s' (stages: $ALL)" >&2; exit 2 ;; esac
done

if command -v ccache >/dev/null 2>&1 && [ "${ECHECS_CCACHE:-1}" = 1 ]; then
    # CMake takes its compiler launcher from this variable when it first
    # configures a build directory (the package's too).
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache
    export CCACHE_DIR=${CCACHE_DIR:-/var/cache/echecs/ccache}
    export CCACHE_BASEDIR=$SRC CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-6G}
    mkdir -p "$CCACHE_DIR"
    ccache -z >/dev/null
fi

# Each runner's output is also kept in $LOGS, for the closing count.
LOGS=$(mktemp -d /tmp/echecs-test-logs.XXXXXX)
T0=$(date +%s)
failed=""
timings=""
# (A stage runs as the condition of an `if`, where the shell ignores `set -e`:
# each stage chains its commands with && or checks them itself.)
run_stage() {
    name=$1
    shift
    printf '\n==== %s\n' "$name"
    t=$(date +%s)
    if "$@"; then status=ok; else status=FAILED; failed="$failed $name"; fi
    d=$(($(date +%s) - t))
    printf '==== %s: %s in %d s\n' "$name" "$status" "$d"
    timings="$timings$(printf '%-11s %-6s %5d s' "$name" "$status" "$d")
"
}

deps() { sh scripts/install-deps.sh test; }

package() {
    rm -rf "$PKGROOT" && PACKAGE_ROOT=$PKGROOT JOBS=$JOBS sh scripts/package-test.sh
}

asan_build() {
    # Clang, not GCC: measured on these targets, a quarter less compile time
    # and less than half the test time; the suite then also builds
    # warning-free with a second compiler (the package is built with GCC).
    cmake -S . -B "$ASAN" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DECHECS_SANITIZE=ON \
        -DECHECS_CORE_ONLY=OFF -DECHECS_TESTS=ON -DECHECS_BENCH=OFF -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" >/dev/null &&
        nice -n 5 ninja -C "$ASAN" -j "$JOBS"
}

asan_tests() {
    (cd "$ASAN" && ctest -j "$JOBS" --output-on-failure --no-tests=error -LE postgres --output-log "$LOGS/asan.ctest")
}

postgres() {
    ok=0
    if PG_URL=$(sh scripts/postgres-test.sh start | tail -n 1); then
        if (cd "$ASAN" && ECHECS_PG_URL="$PG_URL" ctest --output-on-failure --no-tests=error -L postgres \
            >postgres-tests.log 2>&1); then ok=1; fi
        cat "$ASAN/postgres-tests.log"
        cp "$ASAN/postgres-tests.log" "$LOGS/postgres.ctest"
        # Without a server the tests skip themselves; here that would be a failure.
        if grep -q 'Skipped' "$ASAN/postgres-tests.log"; then echo "PostgreSQL tests were skipped"; ok=0; fi
    fi
    sh scripts/postgres-test.sh stop
    [ "$ok" = 1 ]
}

release() {
    # The sanitizer runtimes need descriptors of their own, so this test runs
    # the packaged (release) server from the sanitizer build's test binary.
    [ -x "$PKGROOT/usr/games/echecs" ] || { echo "no packaged binary: run the package stage first" >&2; return 1; }
    ECHECS_RELEASE_BIN="$PKGROOT/usr/games/echecs" "$ASAN/tests/server/server_tests" \
        --gtest_filter='AttackProcess.*' >"$ASAN/release-tests.log" 2>&1 && ok=1 || ok=0
    cat "$ASAN/release-tests.log"
    cp "$ASAN/release-tests.log" "$LOGS/release.gtest"
    if grep -q '^\[  SKIPPED' "$ASAN/release-tests.log"; then echo "a release test skipped itself"; ok=0; fi
    [ "$ok" = 1 ]
}

web() {
    (cd web && npm ci --no-audit --no-fund --loglevel=error && npm test >"$LOGS/web.tap" 2>&1); st=$?
    cat "$LOGS/web.tap"
    return $st
}

e2e() {
    # Against what the package installs: its server and its web client.
    if [ -x "$PKGROOT/usr/games/echecs" ]; then
        export ECHECS_BIN="$PKGROOT/usr/games/echecs" ECHECS_WEB_ROOT="$PKGROOT/usr/share/echecs/web"
    fi
    { [ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund --loglevel=error); } &&
        node web/scripts/e2e.mjs
}

# The browser tests in the background: their output is printed, and their
# status counted, when they end (at the latest before the summary).
E2E_LOG=
E2E_PID=
e2e_start() {
    E2E_LOG=$(mktemp /tmp/echecs-e2e.XXXXXX)
    printf '\n==== e2e (in the background while the next stages run; its output when it ends)\n'
    (
        t=$(date +%s)
        if e2e >"$E2E_LOG" 2>&1; then st=ok; else st=FAILED; fi
        echo "$st $(($(date +%s) - t))" >"$E2E_LOG.status"
    ) &
    E2E_PID=$!
}
e2e_finish() {
    [ -n "$E2E_PID" ] || return 0
    wait "$E2E_PID" || true
    E2E_PID=
    printf '\n==== e2e (ran in the background)\n'
    cat "$E2E_LOG"
    cp "$E2E_LOG" "$LOGS/e2e.tap"
    read -r st d <"$E2E_LOG.status" || { st=FAILED; d=0; }
    printf '==== e2e: %s in %d s\n' "$st" "$d"
    [ "$st" = ok ] || failed="$failed e2e"
    timings="$timings$(printf '%-11s %-6s %5d s (in the background)' e2e "$st" "$d")
"
    rm -f "$E2E_LOG" "$E2E_LOG.status"
}
trap 'if [ -n "$E2E_PID" ]; then kill "$E2E_PID" 2>/dev/null || true; fi' EXIT

for s in $STAGES; do
    if [ "$s" = e2e ] && [ "${ECHECS_TEST_SERIAL:-0}" != 1 ] && [ "$s" != "$(echo "$STAGES" | awk '{print $NF}')" ]; then
        e2e_start
        continue
    fi
    if [ "$s" = asan-tests ]; then e2e_finish; fi
    run_stage "$s" "$(echo "$s" | tr - _)"
done
e2e_finish

printf '\n==== summary (%d s in all)\n%s' "$(($(date +%s) - T0))" "$timings"
if command -v ccache >/dev/null 2>&1 && [ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
    ccache -s | grep -iE '^ *(hits|misses)|cacheable' || true
fi
# One closing count over every runner: ctest's summaries, GoogleTest's and
# node's test runner's.
count() {
    cat "$LOGS"/*.ctest 2>/dev/null | sed -n 's/.* tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\2 \1/p'
    cat "$LOGS"/*.tap 2>/dev/null | sed -n 's/^# pass \([0-9]*\)$/\1 0/p; s/^# fail \([0-9]*\)$/\1 \1/p'
    cat "$LOGS"/*.gtest 2>/dev/null | sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1 0/p; s/^\[  FAILED  \] \([0-9]*\) tests\{0,1\}, listed below.*/\1 \1/p'
}
tally=$(count | awk '{n += $1; f += $2} END {printf "tests: %d passed, %d failed", n - f, f}')
rm -rf "$LOGS"
if [ -n "$failed" ]; then echo "failed stages:$failed"; else echo "all test stages passed"; fi
# The last line: the count, as test runners close.
printf '%s\n' "$tally"
[ -z "$failed" ]
