#!/bin/sh
# Several nodes on one database (issue 25, docs/CLUSTER.md), end to end, on
# loopback: a throwaway PostgreSQL (scripts/postgres-test.sh), the broker
# (redis-server), three `echecs serve --cluster-node` nodes and the balancer
# (HAProxy, roundrobin over the three); then tests/cluster/cluster-client.mjs
# plays 24 games whose two players are on different nodes, SIGKILLs the node
# that runs the most live games in the middle, plays every game to its end
# (the dead node's players reconnect elsewhere), and checks every
# acknowledged move and every result in the database. The last line:
#   cluster: G games, M moves acknowledged, L lost, failover P ms
# (P: the longest time from the kill to the first move answered again in a
# game that moved). Exit status 1 when L > 0, P >= 5000, or anything else
# failed (each wait is bounded and says what it waited for).
#
#   sh scripts/cluster-test.sh
#   ECHECS_BIN=PATH             the server (default build/src/cli/echecs)
#   ECHECS_CLUSTER_NODES=N      nodes (default 3); 1: one plain `echecs serve
#                               --db postgresql://...` (no cluster flags, no
#                               broker, no kill) behind the balancer
#   ECHECS_CLUSTER_GAMES=G      games (default 24)
#   ECHECS_CLUSTER_BUDGET=S     the players' time limit (default 120 s)
#   ECHECS_CLUSTER_LIMIT=S      the whole test's (default 180 s)
#   ECHECS_CLUSTER_RETRY_MS=MS  after the kill, an unanswered action is sent
#                               again this often (default 300)
#   ECHECS_CLUSTER_PG_PORT=P    its PostgreSQL's port (default: a free one;
#                               not ECHECS_PG_PORT, the postgres stage's)
#   ECHECS_CLUSTER_KEEP=1       keep the work directory (logs, HAProxy's
#                               configuration) even when everything passed
#   ECHECS_CLUSTER_BROWSER=auto the browser test (tests/cluster/browser-game.test.mjs:
#                               two browsers pinned to two nodes play a game,
#                               a third node's watches) before the players:
#                               auto runs it when the nodes serve a web client
#                               and Chromium is installed, 1 requires it (the
#                               cluster stage), 0 skips it
# Needs postgresql, redis-server, haproxy, curl (scripts/install-deps.sh test)
# and the ws package (`npm ci` in web/). Every process it starts is stopped
# when it exits, whatever the reason; the logs of a failed run are kept and
# their ends printed.
set -eu
# The whole test's time limit: the script runs again under timeout(1), which
# sends SIGTERM to every process of the group at the limit (the nodes, the
# broker, the balancer, the players; then this script's trap stops the rest).
LIMIT=${ECHECS_CLUSTER_LIMIT:-180}
# (timeout runs in a process group of its own, which a terminal's Ctrl-C
# does not reach: an interrupt of this script is passed on as SIGTERM.)
if [ -z "${ECHECS_CLUSTER_TIMED:-}" ]; then
    ECHECS_CLUSTER_TIMED=1 timeout -k 15 "$LIMIT" sh "$0" "$@" &
    child=$!
    trap 'kill -TERM "$child" 2>/dev/null || true' INT TERM HUP
    while :; do
        if wait "$child"; then st=0; else st=$?; fi
        kill -0 "$child" 2>/dev/null || break
    done
    [ "$st" != 124 ] || echo "cluster-test: the whole test did not end within $LIMIT s (ECHECS_CLUSTER_LIMIT)" >&2
    exit "$st"
fi
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${ECHECS_BIN:-$ROOT/build/src/cli/echecs}
NODES=${ECHECS_CLUSTER_NODES:-3}
GAMES=${ECHECS_CLUSTER_GAMES:-24}
BUDGET=${ECHECS_CLUSTER_BUDGET:-120}

say() { echo "cluster-test: $*"; }
die() {
    echo "cluster-test: $*" >&2
    exit 1
}

[ -x "$BIN" ] || die "no server binary at $BIN (build it, or set ECHECS_BIN)"
for tool in redis-server redis-cli haproxy curl psql pg_isready node; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (sh scripts/install-deps.sh test)"
done
[ -f web/node_modules/ws/package.json ] || die "the ws package is missing (cd web && npm ci)"
case $NODES in [1-9]) ;; *) die "ECHECS_CLUSTER_NODES: 1 to 9, not '$NODES'" ;; esac

WORK=$(mktemp -d /tmp/echecs-cluster.XXXXXX)
PIDS=""       # every process started here, stopped on exit
NODE_PIDS=""  # n1=PID,n2=PID,...
NODE_URLS=""  # n1=http://127.0.0.1:PORT,...
PG_STARTED=0
OK=0

# Stops everything (a node already killed by the test is simply gone), keeps
# the logs of a failed run, then prints the players' last line, last.
cleanup() {
    status=$?
    trap - EXIT INT TERM HUP
    for p in $PIDS; do kill -TERM "$p" 2>/dev/null || true; done
    # Bounded: 5 s for a clean stop, then SIGKILL.
    i=0
    while [ $i -lt 50 ]; do
        alive=""
        for p in $PIDS; do if kill -0 "$p" 2>/dev/null; then alive="$alive $p"; fi; done
        [ -n "$alive" ] || break
        sleep 0.1
        i=$((i + 1))
    done
    for p in $PIDS; do kill -KILL "$p" 2>/dev/null || true; done
    for p in $PIDS; do wait "$p" 2>/dev/null || true; done
    if [ "$PG_STARTED" = 1 ]; then ECHECS_PG_PORT=$PG_PORT sh scripts/postgres-test.sh stop || true; fi
    summary=$(cat "$WORK/summary" 2>/dev/null || true)
    if [ "$OK" = 1 ] && [ "$status" = 0 ] && [ "${ECHECS_CLUSTER_KEEP:-0}" != 1 ]; then
        rm -rf "$WORK"
    else
        for f in "$WORK"/*.log; do
            [ -f "$f" ] || continue
            [ "$f" = "$WORK/client.log" ] && continue
            echo "---- the end of $f"
            tail -n 25 "$f"
        done
        echo "cluster-test: logs kept in $WORK"
    fi
    if [ -n "$summary" ]; then echo "$summary"; fi
    [ "$status" != 0 ] || [ "$OK" = 1 ] || status=1
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# wait_for PID SECONDS WHAT COMMAND...: runs COMMAND every 0.1 s until it
# succeeds; fails, saying WHAT, after SECONDS or as soon as process PID (or
# "-": none) has ended.
wait_for() {
    pid=$1 secs=$2 what=$3
    shift 3
    end=$(($(date +%s) + secs))
    until "$@" >/dev/null 2>&1; do
        if [ "$pid" != - ] && ! kill -0 "$pid" 2>/dev/null; then
            echo "cluster-test: $what: its process ended" >&2
            return 1
        fi
        if [ "$(date +%s)" -ge "$end" ]; then
            echo "cluster-test: $what within $secs s" >&2
            return 1
        fi
        sleep 0.1
    done
}

# Every port on 127.0.0.1, free when chosen (the nodes take theirs with
# --port 0 and print it).
PORTS=$(node tests/cluster/free-ports.mjs 3) || die "no free ports"
PG_PORT=${ECHECS_CLUSTER_PG_PORT:-$(echo "$PORTS" | sed -n 1p)}
REDIS_PORT=$(echo "$PORTS" | sed -n 2p)
LB_PORT=$(echo "$PORTS" | sed -n 3p)

# ---- PostgreSQL
# (postgres-test.sh would reuse a server already on the port, and its stop
# would then stop somebody else's.)
if pg_isready -q -h 127.0.0.1 -p "$PG_PORT" 2>/dev/null; then die "a PostgreSQL server already answers on port $PG_PORT: not using it"; fi
PG_STARTED=1
PG_URL=$(ECHECS_PG_PORT=$PG_PORT sh scripts/postgres-test.sh start 2>"$WORK/postgres.log" | tail -n 1) ||
    die "PostgreSQL did not start on 127.0.0.1:$PG_PORT ($WORK/postgres.log)"
say "PostgreSQL: $PG_URL"

# ---- the broker
if [ "$NODES" -gt 1 ]; then
    redis-server --save '' --appendonly no --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize no \
        >"$WORK/redis.log" 2>&1 &
    REDIS_PID=$!
    PIDS="$PIDS $REDIS_PID"
    redis_up() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping)" = PONG ]; }
    wait_for "$REDIS_PID" 10 "redis-server did not answer PING on 127.0.0.1:$REDIS_PORT" redis_up
    say "redis: 127.0.0.1:$REDIS_PORT (process $REDIS_PID)"
fi

# ---- the nodes
# All clients come from 127.0.0.1, so the per-address limits are raised for
# the test's 48 players (the defaults would refuse the 21st open seek and
# the 65th socket of the address).
start_node() {
    name=$1
    if [ "$NODES" -gt 1 ]; then
        set -- --cluster-node "$name" --redis "127.0.0.1:$REDIS_PORT"
    else
        set --
    fi
    (cd "$WORK" && exec "$BIN" serve --host 127.0.0.1 --port 0 --db "$PG_URL" "$@" \
        --max-seeks-per-ip 1000 --max-connections-per-ip 1000 --http-rate-per-second 1000 --http-burst 1000 \
        >"$WORK/$name.log" 2>&1) &
    pid=$!
    PIDS="$PIDS $pid"
    eval "PID_$name=$pid"
}
node_port() { sed -n 's|^echecs server listening on http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$WORK/$1.log"; }
await_node() {
    name=$1
    eval "pid=\$PID_$name"
    has_port() { [ -n "$(node_port "$1")" ]; }
    wait_for "$pid" 30 "node $name did not print where it listens" has_port "$name"
    port=$(node_port "$name")
    wait_for "$pid" 20 "node $name did not answer /api/variants on 127.0.0.1:$port" \
        curl -fsS --max-time 2 -o /dev/null "http://127.0.0.1:$port/api/variants"
    NODE_URLS="$NODE_URLS${NODE_URLS:+,}$name=http://127.0.0.1:$port"
    NODE_PIDS="$NODE_PIDS${NODE_PIDS:+,}$name=$pid"
    say "node $name: http://127.0.0.1:$port/ (process $pid)"
}
# The first node creates the schema; the others start together.
start_node n1
await_node n1
i=2
while [ $i -le "$NODES" ]; do start_node "n$i"; i=$((i + 1)); done
i=2
while [ $i -le "$NODES" ]; do await_node "n$i"; i=$((i + 1)); done

# ---- the balancer
{
    cat <<EOF
global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    # a WebSocket, once upgraded
    timeout tunnel 1h
    # a node that refuses the connection (killed): try another
    option redispatch 1
    retries 3

frontend players
    bind 127.0.0.1:$LB_PORT
    default_backend nodes

backend nodes
    balance roundrobin
    option httpchk GET /api/variants
    http-check expect status 200
    # the node chosen, for the test's record of where each player is
    http-response set-header X-Echecs-Node %s
    default-server inter 500ms fall 2 rise 2
    # The browser test pins each browser to a node with the cookie
    # ECHECS_NODE (the players send none: roundrobin).
EOF
    echo "$NODE_URLS" | tr ',' '\n' | sed 's|^\(n[0-9]*\)=.*$|    use-server \1 if { req.cook(ECHECS_NODE) \1 }|'
    echo "$NODE_URLS" | tr ',' '\n' | sed 's|^\(n[0-9]*\)=http://\(.*\)$|    server \1 \2 check|'
} >"$WORK/haproxy.cfg"
haproxy -c -q -f "$WORK/haproxy.cfg" >"$WORK/haproxy-check.log" 2>&1 || die "HAProxy refused $WORK/haproxy.cfg: $(cat "$WORK/haproxy-check.log")"
haproxy -db -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
LB_PID=$!
PIDS="$PIDS $LB_PID"
LB=http://127.0.0.1:$LB_PORT
wait_for "$LB_PID" 10 "HAProxy did not pass /api/variants through 127.0.0.1:$LB_PORT" \
    curl -fsS --max-time 2 -o /dev/null "$LB/api/variants"
say "HAProxy: $LB/ (process $LB_PID), roundrobin over $NODES node(s)"
# The pinning the browser test relies on: the cookie names the node.
for n in $(echo "$NODE_URLS" | sed 's|=[^,]*||g' | tr ',' ' '); do
    got=$(curl -fsS --max-time 5 -D - -o /dev/null --cookie "ECHECS_NODE=$n" "$LB/api/variants" |
        tr -d '\r' | sed -n 's/^[Xx]-[Ee]checs-[Nn]ode: //p')
    [ "$got" = "$n" ] || die "HAProxy sent a request pinned to $n to '${got:-?}'"
done

# ---- the browser test (three nodes, before the kill)
BROWSER=${ECHECS_CLUSTER_BROWSER:-auto}
why_not=""
if [ "$NODES" -lt 3 ]; then
    why_not="it needs three nodes"
elif grep -q '^  web root: none' "$WORK/n1.log"; then
    why_not="the nodes serve no web client (build web/dist, or use the packaged binary)"
elif [ ! -x /usr/bin/chromium-headless-shell ] && [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM_PATH:-}" ]; then
    why_not="Chromium is not installed (sh scripts/install-deps.sh test)"
elif [ ! -f web/node_modules/playwright-core/package.json ]; then
    why_not="playwright-core is missing (cd web && npm ci)"
fi
if [ "$BROWSER" = 0 ]; then
    say "browser test: not run (ECHECS_CLUSTER_BROWSER=0)"
elif [ -n "$why_not" ]; then
    [ "$BROWSER" != 1 ] || die "the browser test cannot run: $why_not"
    say "browser test: skipped: $why_not"
else
    t=$(date +%s)
    if ECHECS_CLUSTER_URL=$LB ECHECS_CLUSTER_PINNED=$(echo "$NODE_URLS" | sed 's|=[^,]*||g') \
        node --test tests/cluster/browser-game.test.mjs >"$WORK/browser.log" 2>&1; then
        say "browser test: two browsers on two nodes played a game, watched from a third ($(($(date +%s) - t)) s)"
    else
        cat "$WORK/browser.log"
        die "the browser test failed"
    fi
fi

# ---- the players
if [ "$NODES" -gt 1 ]; then KILL=1; else KILL=0; fi
# (--foreground: the players stay in this process group, which the whole
# test's timeout and an interrupt reach.)
{
    CT_NODES=$NODE_URLS CT_PIDS=$NODE_PIDS CT_LB=$LB CT_PG=$PG_URL CT_GAMES=$GAMES CT_KILL=$KILL \
        CT_BUDGET_S=$BUDGET CT_SUMMARY=$WORK/summary CT_RETRY_MS=${ECHECS_CLUSTER_RETRY_MS:-300} \
        timeout --foreground -k 5 $((BUDGET + 20)) node tests/cluster/cluster-client.mjs 2>&1
    echo $? >"$WORK/client.status"
} | tee "$WORK/client.log"
st=$(cat "$WORK/client.status" 2>/dev/null || echo 1)
[ -f "$WORK/summary" ] || die "the players ended without their summary (status $st)"
[ "$st" = 0 ] || exit 1
OK=1
