#!/bin/sh
# A throwaway PostgreSQL cluster for the server's storage tests.
#   scripts/postgres-test.sh [start]   creates and starts the cluster, prints its
#                                      URL (the Debian package postgresql must be
#                                      installed: scripts/install-deps.sh test)
#   scripts/postgres-test.sh url       prints the URL
#   scripts/postgres-test.sh stop      stops the cluster and deletes it
# The cluster listens on 127.0.0.1 only (port $ECHECS_PG_PORT, default 25432:
# below Linux's ephemeral ports, 32768-60999, where a busy machine's own
# outgoing connections can hold the port and make the start fail),
# trusts local connections, keeps its files in $ECHECS_PG_DIR (default
# /var/tmp/echecs-test-postgres-<port>) and runs without fsync: test data only.
# Run as root (it then runs PostgreSQL as the `postgres` user) or as any
# non-root user that can run initdb.
set -eu

PORT=${ECHECS_PG_PORT:-25432}
DIR=${ECHECS_PG_DIR:-/var/tmp/echecs-test-postgres-$PORT}
DB=echecs_test
URL="postgresql://postgres@127.0.0.1:$PORT/$DB"
CMD=${1:-start}

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$CMD" in
url)
    echo "$URL"
    exit 0
    ;;
stop)
    BIN=$(pg_bin)
    if [ -n "$BIN" ] && [ -f "$DIR/data/PG_VERSION" ]; then
        as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$DIR"
    exit 0
    ;;
start) ;;
*)
    echo "usage: $0 [start|url|stop]" >&2
    exit 2
    ;;
esac

BIN=$(pg_bin)
if [ -z "$BIN" ]; then
    echo "$0: PostgreSQL is not installed (Debian package postgresql: sh scripts/install-deps.sh test)" >&2
    exit 1
fi

if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" 2>/dev/null; then
    RUNNING=1
else
    # Not running: start from a fresh cluster (a killed one may be damaged:
    # it runs without fsync).
    RUNNING=0
    if [ -f "$DIR/data/postmaster.pid" ]; then
        as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$DIR"
fi

if [ ! -f "$DIR/data/PG_VERSION" ]; then
    rm -rf "$DIR"
    mkdir -p "$DIR/data"
    [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$DIR"
    chmod 700 "$DIR/data"
    as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-locale >"$DIR/initdb.log" 2>&1 ||
        { cat "$DIR/initdb.log" >&2; exit 1; }
fi

if [ "$RUNNING" = 0 ]; then
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null || { cat "$DIR/server.log" >&2; exit 1; }
fi

if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" postgres | grep -q 1; then
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
fi
echo "$URL"
