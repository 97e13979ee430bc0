#!/bin/sh
# The repository standing alone, and its Debian package (Debian 12, as root;
# scripts/test.sh runs this as its `package` stage):
#   1. a git clone of this checkout's HEAD, with nothing beside it, builds the
#      echecs .deb (`dpkg-buildpackage -us -uc -b`: the release build of the
#      whole product and the web client, from the repository alone), and
#      lintian checks it (any error or warning fails);
#   2. the .deb is unpacked into a scratch root, and the binary installed
#      there is started as its systemd unit starts it (the unit's ExecStart,
#      so with --config and the packaged /etc/echecs/echecs.conf), from `/`,
#      as user nobody: it must find its web client under the scratch
#      root's share/echecs without being told, serve it at `/` and create
#      games (scripts/smoke-server.mjs).
# Committed files only: uncommitted changes are not in the clone.
#   PACKAGE_ROOT=DIR keeps the scratch root there (scripts/test.sh runs its
#   release and browser tests on it); DEB_OUT=DIR copies the .deb there.
# The clone is always at the same place ($ECHECS_PACKAGE_DIR, default
# /var/tmp/echecs-package/echecs), one run at a time (flock), and is kept: the
# next run checks the new HEAD out in it (git rewrites only the files that
# differ), deletes every file git does not track except the package's CMake
# build directory and web/node_modules, and builds without cleaning, so that
# only what changed is compiled again (debian/rules installs the npm packages
# only when the lock file changed). The first run on a machine, and CI, build
# from a fresh clone. FRESH=1 starts from a fresh clone anyway.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
TMP=${ECHECS_PACKAGE_DIR:-/var/tmp/echecs-package}
mkdir -p "$(dirname "$TMP")"
exec 9>"$TMP.lock"
if ! flock -w 1800 9; then echo "another package test holds $TMP.lock (waited 30 min)" >&2; exit 1; fi
# Everything but the clone is made afresh: the .deb, the scratch root, logs.
mkdir -p "$TMP"
find "$TMP" -mindepth 1 -maxdepth 1 ! -name echecs -exec rm -rf {} +
PID=
LINTIAN=
cleanup() {
    if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; fi
    if [ -n "$LINTIAN" ]; then kill "$LINTIAN" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
t0=$(date +%s)
step() { printf -- '-- [%ss] %s\n' "$(($(date +%s) - t0))" "$*"; }

HEAD=$(git -C "$SRC" rev-parse HEAD)
# The package's CMake build directory (debhelper's name for it).
OBJ=obj-$(dpkg-architecture -qDEB_HOST_GNU_TYPE)
if [ "${FRESH:-0}" = 1 ] || ! git -C "$TMP/echecs" rev-parse --git-dir >/dev/null 2>&1; then
    step "clone of $(git -C "$SRC" rev-parse --short HEAD) into $TMP/echecs, nothing beside it"
    rm -rf "$TMP/echecs"
    git clone --quiet --no-checkout "$SRC" "$TMP/echecs"
    git -C "$TMP/echecs" checkout --quiet --detach "$HEAD"
else
    step "the kept clone $TMP/echecs moved to $(git -C "$SRC" rev-parse --short HEAD); only its build outputs kept"
    git -C "$TMP/echecs" fetch --quiet "$SRC" HEAD
    git -C "$TMP/echecs" checkout --quiet --force --detach "$HEAD"
fi
# Nothing but committed files, the build directory and the npm packages.
git -C "$TMP/echecs" clean -ffdxq -e "/$OBJ/" -e /web/node_modules/
cd "$TMP/echecs"
KEPT=". :(exclude)$OBJ :(exclude)web/node_modules"
# shellcheck disable=SC2086
if [ -n "$(git status --porcelain -- $KEPT)" ]; then git status --short -- $KEPT >&2; echo "the clone is not HEAD" >&2; exit 1; fi
if [ -e ../shared ]; then echo "unexpected ../shared beside the clone" >&2; exit 1; fi

# Without the -dbgsym package: compressing its debug information took 43 of
# the build's 96 s here, and the tests use only the package itself.
# -nc: no `debian/rules clean` first (it would delete the kept build
# directory); the clone holds committed files only, checked above.
# The .deb compressed with gzip -1: xz -6 (dpkg's default) took 8-13 s of
# the build for a package the tests unpack once. Each line of build.log
# starts with its second since the build started.
step "Debian package: DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -us -uc -b -nc (log: build.log)"
{ DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noautodbgsym" \
    DPKG_DEB_COMPRESSOR_TYPE=gzip DPKG_DEB_COMPRESSOR_LEVEL=1 \
    dpkg-buildpackage -us -uc -b -nc -j"$JOBS" 2>&1 || echo "dpkg-buildpackage: exit $?"; } |
    perl -MTime::HiRes=time -ne 'BEGIN { $t0 = time } printf "%6.1f %s", time - $t0, $_' >"$TMP/build.log"
if grep -q '^ *[0-9.]* dpkg-buildpackage: exit ' "$TMP/build.log"; then tail -n 60 "$TMP/build.log"; exit 1; fi
DEB=$(ls "$TMP"/echecs_*_"$(dpkg --print-architecture)".deb)
ls -l "$DEB" | awk '{print $5, $NF}'
if [ -n "${DEB_OUT:-}" ]; then cp "$DEB" "$DEB_OUT/"; fi

# lintian (the .changes and the .deb it lists, in one run) while the package
# is installed and started; its verdict is waited for at the end.
step "lintian, in the background (log: lintian.log)"
lintian --fail-on error,warning --info --display-info "$TMP"/echecs_*.changes >"$TMP/lintian.log" 2>&1 &
LINTIAN=$!

step "install into a scratch root"
ROOT=$TMP/root
dpkg-deb -x "$DEB" "$ROOT"
# (debhelper compresses the larger docs: RULES.md.gz)
for f in usr/games/echecs usr/libexec/echecs/echecs-server usr/share/echecs/web/index.html usr/share/echecs/openings/chess.txt usr/share/echecs/puzzles/chess.jsonl \
    usr/share/man/man1/echecs.1.gz usr/share/doc/echecs/RULES.md usr/share/doc/echecs/SERVER.md \
    lib/systemd/system/echecs.service etc/echecs/echecs.conf \
    lib/systemd/system/echecs-node@.service usr/share/doc/echecs/examples/node.conf \
    usr/share/doc/echecs/examples/haproxy/echecs.cfg usr/share/doc/echecs/examples/nginx/echecs.conf; do
    [ -e "$ROOT/$f" ] || [ -e "$ROOT/$f.gz" ] || { echo "the package lacks /$f" >&2; exit 1; }
done
"$ROOT/usr/games/echecs" --version
if command -v systemd-analyze >/dev/null 2>&1; then
    # The unit as installed, its binary taken from the scratch root (--man=no:
    # its man page is there too, not on this machine).
    mkdir "$TMP/unit"
    sed "s|=/usr/games/echecs |=$ROOT/usr/games/echecs |" "$ROOT/lib/systemd/system/echecs.service" \
        >"$TMP/unit/echecs.service"
    systemd-analyze verify --man=no "$TMP/unit/echecs.service"
    # The cluster nodes' template, as its instance 1 (systemd-analyze exits
    # 0 on an unknown key or a bad value: any message fails instead).
    sed "s|=/usr/games/echecs |=$ROOT/usr/games/echecs |" "$ROOT/lib/systemd/system/echecs-node@.service" \
        >"$TMP/unit/echecs-node@1.service"
    NODE_UNIT=$(systemd-analyze verify --man=no "$TMP/unit/echecs-node@1.service" 2>&1) || { echo "$NODE_UNIT" >&2; exit 1; }
    if [ -n "$NODE_UNIT" ]; then echo "$NODE_UNIT" >&2; echo "echecs-node@.service: systemd-analyze complains" >&2; exit 1; fi
fi

step "start the installed binary as the unit does, from /, as user nobody"
EXEC=$(sed -n 's/^ExecStart=//p' "$ROOT/lib/systemd/system/echecs.service")
case "$EXEC" in
"/usr/games/echecs serve --config /etc/echecs/echecs.conf") ;;
*) echo "unexpected ExecStart: $EXEC" >&2; exit 1 ;;
esac
chmod 755 "$TMP"
mkdir "$TMP/state"
AS=""
if [ "$(id -u)" = 0 ]; then
    chown nobody "$TMP/state"
    AS="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
fi
# The packaged configuration, with the database in a scratch directory and any
# free port (flags override the file).
(cd / && exec $AS "$ROOT/usr/games/echecs" serve --config "$ROOT/etc/echecs/echecs.conf" \
    --db "$TMP/state/echecs.db" --port 0 >"$TMP/serve.log" 2>&1) &
PID=$!
i=0
until grep -q 'listening on' "$TMP/serve.log" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 150 ] || ! kill -0 "$PID" 2>/dev/null; then
        cat "$TMP/serve.log"
        echo "the installed server did not start" >&2
        exit 1
    fi
    sleep 0.1
done
cat "$TMP/serve.log"
grep -q "web root: $ROOT/usr/share/echecs/web (installed)" "$TMP/serve.log" ||
    { echo "the installed server did not find its installed web client" >&2; exit 1; }
URL=$(sed -n 's|.*listening on \(http://[0-9.]*:[0-9]*\)/.*|\1|p' "$TMP/serve.log")
node "$TMP/echecs/scripts/smoke-server.mjs" "$URL"
kill -TERM "$PID"
wait "$PID" || true
PID=
grep -q 'echecs server stopped' "$TMP/serve.log" || { cat "$TMP/serve.log"; echo "no clean stop" >&2; exit 1; }
if [ -n "${PACKAGE_ROOT:-}" ]; then
    rm -rf "$PACKAGE_ROOT"
    cp -a "$ROOT" "$PACKAGE_ROOT"
    step "the installed files kept in $PACKAGE_ROOT"
fi
step "lintian's verdict"
st=0
wait "$LINTIAN" || st=$?
LINTIAN=
cat "$TMP/lintian.log"
if [ "$st" != 0 ]; then echo "lintian failed (exit $st)" >&2; exit 1; fi
step "package test passed"
