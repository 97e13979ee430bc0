#!/bin/sh
# The whole test suite, as `make test` and CI run it (Debian 12, as root).
# docs/TESTING.md says what each stage proves, how long it takes and how to
# replay a failure.
#
#   sh scripts/test.sh               every stage:
#     deps        install what is missing (scripts/install-deps.sh test)
#     web         the web client's unit tests (its `npm ci` installs what the
#                 browser tests use)
#   then two lanes at once (the processor is what they share, and neither
#   keeps both cores busy alone; ECHECS_TEST_SERIAL=1: one stage at a time):
#     package     a clean clone builds the Debian package (the release build
#                 and the web client, once), lintian checks it, its installed
#                 server is started as systemd starts it (scripts/package-test.sh)
#     e2e         the browser tests in headless Chromium against the packaged
#                 server and client (desktop: every flow; phone: every page and
#                 the phone flows)
#     cluster     three packaged nodes on one PostgreSQL, redis and HAProxy:
#                 24 games across nodes, a node killed in the middle, every
#                 acknowledged move in the database (scripts/cluster-test.sh)
#   (that lane in the background, its output printed when it ends) and
#     asan-build  everything, tests included, with Clang under ASan + UBSan,
#                 from a copy of the clone at a fixed place, kept (a second
#                 run compiles only what changed), at a lower priority
#     asan-tests  every C++ test (rules, command line, engine, solver, server,
#                 attacks, fuzz smoke) under ASan + UBSan
#     postgres    the storage tests against a throwaway PostgreSQL server
#   then
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
# The sanitizer build: from a copy of this clone's files at a fixed place
# ($ECHECS_ASAN_DIR/src, default /var/tmp/echecs-asan/src, made equal to the
# working tree by scripts/sync-tree.mjs: changed files rewritten, stale ones
# deleted, the others untouched), built in $ECHECS_ASAN_DIR/build, kept: a
# second run, from any clone, compiles only what changed. One run at a time
# holds it (flock on $ECHECS_ASAN_DIR.lock, from asan-build to the end).
# ECHECS_ASAN_BUILD=DIR builds from the clone itself in DIR instead.
ASAN_DIR=${ECHECS_ASAN_DIR:-/var/tmp/echecs-asan}
if [ -n "${ECHECS_ASAN_BUILD:-}" ]; then
    ASAN=$ECHECS_ASAN_BUILD ASAN_SRC=$SRC ASAN_DIR=
else
    ASAN=$ASAN_DIR/build ASAN_SRC=$ASAN_DIR/src
fi
# The package's installed files (scratch root), kept for the later stages.
PKGROOT=${ECHECS_PACKAGE_ROOT:-$SRC/build-package}

ALL="deps package web e2e cluster asan-build asan-tests postgres release"
STAGES=${*:-$ALL}
for s in $STAGES; do
    case " $ALL " in *" $s "*) ;; *) echo "unknown stage '$s' (stages: $ALL)" >&2; exit 2 ;; esac
done

# After the deps stage, which installs ccache on a fresh machine: its first
# run then fills the cache that makes the second one short.
CCACHE_SET=
use_ccache() {
    [ -z "$CCACHE_SET" ] || return 0
    CCACHE_SET=1
    command -v ccache >/dev/null 2>&1 && [ "${ECHECS_CCACHE:-1}" = 1 ] || return 0
    # CMake takes its compiler launcher from this variable when it first
    # configures a build directory (the package's too).
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache
    export CCACHE_DIR=${CCACHE_DIR:-/var/cache/echecs/ccache}
    export CCACHE_BASEDIR=$SRC CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-6G}
    mkdir -p "$CCACHE_DIR"
    ccache -z >/dev/null
}

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

# The fixed place is locked by the first stage that uses it, until the end
# (the descriptor is closed for the servers the stages start).
ASAN_LOCKED=
asan_lock() {
    [ -n "$ASAN_DIR" ] && [ -z "$ASAN_LOCKED" ] || return 0
    mkdir -p "$ASAN_DIR"
    exec 8>"$ASAN_DIR.lock"
    if ! flock -w 3600 8; then echo "another test run holds $ASAN_DIR.lock (waited 60 min)" >&2; return 1; fi
    ASAN_LOCKED=1
}

asan_build() {
    # Clang, not GCC: measured on these targets, a quarter less compile time
    # and less than half the test time; the suite then also builds
    # warning-free with a second compiler (the package is built with GCC).
    if [ -n "$ASAN_DIR" ]; then
        node scripts/sync-tree.mjs "$SRC" "$ASAN_SRC" 8>&- || return 1
    fi
    echo "sanitizer build of $ASAN_SRC in $ASAN"
    # -no-pie: each of the 600 test processes started 0.1 s sooner (0.25 ->
    # 0.15 s for the server's tests, measured): the loader no longer applies
    # the 1.2 million relocations of a position-independent sanitizer binary.
    cmake -S "$ASAN_SRC" -B "$ASAN" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DECHECS_SANITIZE=ON \
        -DECHECS_CORE_ONLY=OFF -DECHECS_TESTS=ON -DECHECS_BENCH=OFF -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
        -DCMAKE_EXE_LINKER_FLAGS=-no-pie >/dev/null &&
        nice -n 5 ninja -C "$ASAN" -j "$JOBS"
}

asan_tests() {
    (cd "$ASAN" && ctest -j "$JOBS" --output-on-failure --no-tests=error -LE postgres --output-log "$LOGS/asan.ctest")
}

postgres() {
    ok=0
    # (8>&-: the PostgreSQL server it starts must not hold the lock of the fixed place)
    if PG_URL=$(sh scripts/postgres-test.sh start 8>&- | tail -n 1); then
        if (cd "$ASAN" && ECHECS_PG_URL="$PG_URL" ctest --output-on-failure --no-tests=error -L postgres \
            >postgres-tests.log 2>&1); then ok=1; fi
        cat "$ASAN/postgres-tests.log"
        cp "$ASAN/postgres-tests.log" "$LOGS/postgres.ctest"
        # Without a server the tests skip themselves; here that would be a failure.
        if grep -q 'Skipped' "$ASAN/postgres-tests.log"; then echo "PostgreSQL tests were skipped"; ok=0; fi
    fi
    sh scripts/postgres-test.sh stop 8>&-
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

cluster() {
    # Against the packaged binary and its web client, as e2e; its own
    # PostgreSQL (another port than the postgres stage's), redis, three nodes
    # and HAProxy; the browser test of tests/cluster required.
    [ -x "$PKGROOT/usr/games/echecs" ] || { echo "no packaged binary: run the package stage first" >&2; return 1; }
    { [ -f web/node_modules/ws/package.json ] || (cd web && npm ci --no-audit --no-fund --loglevel=error); } &&
        ECHECS_BIN="$PKGROOT/usr/games/echecs" ECHECS_CLUSTER_BROWSER=1 sh scripts/cluster-test.sh; st=$?
    # One test in the closing count.
    if [ "$st" = 0 ]; then echo '# pass 1'; else echo '# fail 1'; fi >"$LOGS/cluster.tap"
    return $st
}

# Two lanes at once, since the processor is what they share and neither
# keeps it busy alone: the package then the browser tests and the cluster
# test (both run against it), in the background; the sanitizer build then
# its tests in the foreground (the build at a lower priority: the browser
# tests' waits are on a clock). `deps` and `web` (its `npm ci` installs what the browser tests
# run with) come first, `release` last (it needs both lanes).
# ECHECS_TEST_SERIAL=1: every stage in the foreground, in the order given.
# A background stage's output is printed, and its status counted, when its
# lane ends.
LANE_DIR=$(mktemp -d /tmp/echecs-lane.XXXXXX)
LANE_PID=
lane_start() {
    printf '\n==== %s (in the background while the next stages run; their output when they end)\n' "$*"
    (
        for s in "$@"; do
            t=$(date +%s)
            if "$(echo "$s" | tr - _)" >"$LANE_DIR/$s.log" 2>&1; then st=ok; else st=FAILED; fi
            echo "$s $st $(($(date +%s) - t))" >>"$LANE_DIR/status"
        done
    ) 8>&- &
    LANE_PID=$!
}
lane_finish() {
    [ -n "$LANE_PID" ] || return 0
    wait "$LANE_PID" || true
    LANE_PID=
    while read -r s st d; do
        printf '\n==== %s (ran in the background)\n' "$s"
        cat "$LANE_DIR/$s.log"
        if [ "$s" = e2e ]; then cp "$LANE_DIR/$s.log" "$LOGS/e2e.tap"; fi
        printf '==== %s: %s in %d s\n' "$s" "$st" "$d"
        [ "$st" = ok ] || failed="$failed $s"
        timings="$timings$(printf '%-11s %-6s %5d s (in the background)' "$s" "$st" "$d")
"
    done <"$LANE_DIR/status"
}
trap 'if [ -n "$LANE_PID" ]; then kill "$LANE_PID" 2>/dev/null || true; fi; rm -rf "$LANE_DIR"' EXIT

foreground() {
    case $1 in asan-* | postgres | release) asan_lock || { failed="$failed $1"; return 0; } ;; esac
    run_stage "$1" "$(echo "$1" | tr - _)"
}
has() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }

lane_a="" lane_b=""
for s in $STAGES; do
    case $s in
    package | e2e | cluster) lane_a="$lane_a $s" ;;
    web | asan-build | asan-tests | postgres) lane_b="$lane_b $s" ;;
    esac
done
if [ "${ECHECS_TEST_SERIAL:-0}" = 1 ] || [ -z "$lane_a" ] || [ -z "$lane_b" ] || [ "$lane_b" = " web" ]; then
    for s in $STAGES; do
        if [ "$s" != deps ]; then use_ccache; fi
        foreground "$s"
    done
else
    if has deps; then foreground deps; fi
    use_ccache
    if has web; then foreground web; fi
    # shellcheck disable=SC2086
    lane_start $lane_a
    for s in $lane_b; do [ "$s" = web ] || foreground "$s"; done
    lane_finish
    if has release; then foreground release; fi
fi

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
