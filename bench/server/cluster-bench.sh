#!/bin/bash
# Several nodes: what a move costs with one and three nodes (a benchmark, not a
# test; docs/PERFORMANCE.md, "Several nodes: cost per move and the plan for
# internet scale").
#
#   bench/server/cluster-bench.sh [ECHECS_BINARY]
#
# Starts a throwaway PostgreSQL (scripts/postgres-test.sh on port
# $ECHECS_PG_PORT, default 25481) and a throwaway redis-server (port
# $REDIS_PORT, default 25482, no persistence, loopback only), then, RUNS times
# (default 3), each configuration on a fresh database, in a rotating order:
#   plain    one `echecs serve --db postgresql://...`, no cluster mode
#   node1    one node in cluster mode (--cluster-node, --redis)
#   nodes3   three nodes, the players of each game on n2 and n3 and the
#            lobby on n1. Before stop 41 every game made from a seek ran on
#            the lobby's node, so every message of every move crossed Redis
#            twice; the lobby's node now spreads the games over the three
#            (the fewest live games), so a third run on each node and, for
#            two thirds of the games, one player is on the game's node
# and plays the same load on each with bench/server/cluster-bench.mjs (GAMES
# games at once, default 40, of PLIES plies, default 40, closed loop, no
# clock). Then SOCKETS browsers (default 5000) that only say hello to one of
# three nodes (memory and CPU per connected client), and a quick ceiling of the
# Redis server (redis-benchmark PUBLISH with two subscribers; CEILING=0 skips
# it). Everything is stopped on exit. Results: one JSON line per configuration
# and run in $OUT/results.jsonl (default /tmp/cluster-bench.<pid>), the medians
# in $OUT/summary.md, deadlocks.txt (PostgreSQL deadlocks during a run),
# failures.txt (a failed run, tried once more), logs beside them.
# Other settings: GAMES, PLIES, IDLE (seconds of background measured before
# the play, default 5), CONFIGS (default "plain node1 nodes3"), NODE_PORTS.
#
# Needs: the PostgreSQL Debian package, redis-server and redis-tools, node and
# the npm package ws (found in $ECHECS_WS_DIR, the current directory or web/:
# `npm ci` in web/ installs it).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ECHECS=${1:-${ECHECS:-$ROOT/build/src/cli/echecs}}
RUNS=${RUNS:-3}
GAMES=${GAMES:-40}
PLIES=${PLIES:-40}
IDLE=${IDLE:-5}
PG_PORT=${ECHECS_PG_PORT:-25481}
REDIS_PORT=${REDIS_PORT:-25482}
PORTS=(${NODE_PORTS:-25491 25492 25493})
OUT=${OUT:-/tmp/cluster-bench.$$}
CONFIGS=${CONFIGS:-plain node1 nodes3}
PG_DIR=/var/tmp/echecs-test-postgres-$PG_PORT

mkdir -p "$OUT"
[ -x "$ECHECS" ] || { echo "cluster-bench: no echecs binary at $ECHECS (give its path)" >&2; exit 2; }
for tool in redis-server redis-cli node psql; do
    command -v "$tool" >/dev/null || { echo "cluster-bench: $tool is not installed" >&2; exit 2; }
done

SERVER_PIDS=()
REDIS_PID=
SUB_PIDS=()
PG_STARTED=0

log() { echo "[cluster-bench $(date +%H:%M:%S)] $*" >&2; }

# Stops a process we started: TERM, then KILL after $2 seconds.
stop_pid() {
    local pid=$1 secs=${2:-10} i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < secs * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
        sleep 0.1
    done
    log "process $pid did not stop within ${secs} s of SIGTERM: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

stop_servers() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do stop_pid "$pid" 15; done
    SERVER_PIDS=()
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    stop_servers
    local pid
    for pid in "${SUB_PIDS[@]}"; do stop_pid "$pid" 3; done
    [ -n "$REDIS_PID" ] && stop_pid "$REDIS_PID" 10
    [ "$PG_STARTED" = 1 ] && ECHECS_PG_PORT=$PG_PORT sh "$ROOT/scripts/postgres-test.sh" stop 8>&- || true
    log "stopped everything; results in $OUT"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for NAME SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds.
wait_for() {
    local name=$1 secs=$2 i
    shift 2
    for ((i = 0; i < secs * 10; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    log "gave up waiting for $name after ${secs} s"
    return 1
}

http_up() { node -e "fetch('http://127.0.0.1:$1/api/lobby').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
psql_pg() { psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -X -tAq "$@"; }

for p in "$REDIS_PORT" "${PORTS[@]}"; do
    port_free "$p" || { echo "cluster-bench: port $p is in use (set REDIS_PORT / NODE_PORTS)" >&2; exit 2; }
done

# --- PostgreSQL and Redis ----------------------------------------------------
log "PostgreSQL on port $PG_PORT"
PG_STARTED=1
ECHECS_PG_PORT=$PG_PORT sh "$ROOT/scripts/postgres-test.sh" start 8>&- | tail -n 1
PG_PID=$(head -n 1 "$PG_DIR/data/postmaster.pid")
log "postmaster $PG_PID ($(psql_pg -c 'SHOW server_version' postgres))"

log "redis-server on port $REDIS_PORT"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
    --logfile "$OUT/redis.log" &
REDIS_PID=$!
wait_for "redis-server" 10 redis-cli -p "$REDIS_PORT" ping

COMMON=(--host 127.0.0.1 --max-connections-per-ip 100000 --http-rate-per-second 100000 --http-burst 100000
    --max-seeks-per-ip 100000 --rate-per-second 1000 --rate-burst 1000)

# start_node LOG PORT DB [cluster args...]: starts one server, records its pid.
start_node() {
    local logf=$1 port=$2 dbname=$3
    shift 3
    "$ECHECS" serve --port "$port" --db "postgresql://postgres@127.0.0.1:$PG_PORT/$dbname" "${COMMON[@]}" "$@" \
        >"$logf" 2>&1 &
    SERVER_PIDS+=($!)
    wait_for "echecs on port $port" 30 http_up "$port" || { tail -n 20 "$logf" >&2; return 1; }
}

# start_config CONFIG DB DIR: starts the servers of a configuration; sets
# WHITE and BLACK, the ports of each game's two players (and of the seek and
# of its acceptance).
start_config() {
    local cfg=$1 dbname=$2 dir=$3
    mkdir -p "$dir"
    psql_pg -c "DROP DATABASE IF EXISTS $dbname" postgres 2>/dev/null
    psql_pg -c "CREATE DATABASE $dbname" postgres
    case "$cfg" in
    plain)
        start_node "$dir/node.log" "${PORTS[0]}" "$dbname"
        WHITE=${PORTS[0]} BLACK=${PORTS[0]}
        ;;
    node1)
        start_node "$dir/n1.log" "${PORTS[0]}" "$dbname" --cluster-node n1 --redis "127.0.0.1:$REDIS_PORT"
        wait_for "n1 to run the lobby" 30 grep -q 'this node runs the lobby' "$dir/n1.log"
        WHITE=${PORTS[0]} BLACK=${PORTS[0]}
        ;;
    nodes3)
        # n1 first: it takes the lobby's lease, and places the games made from seeks.
        start_node "$dir/n1.log" "${PORTS[0]}" "$dbname" --cluster-node n1 --redis "127.0.0.1:$REDIS_PORT"
        wait_for "n1 to run the lobby" 30 grep -q 'this node runs the lobby' "$dir/n1.log"
        start_node "$dir/n2.log" "${PORTS[1]}" "$dbname" --cluster-node n2 --redis "127.0.0.1:$REDIS_PORT"
        start_node "$dir/n3.log" "${PORTS[2]}" "$dbname" --cluster-node n3 --redis "127.0.0.1:$REDIS_PORT"
        wait_for "n2 to know the lobby's node" 30 grep -q 'the lobby is run by' "$dir/n2.log"
        wait_for "n3 to know the lobby's node" 30 grep -q 'the lobby is run by' "$dir/n3.log"
        WHITE=${PORTS[1]} BLACK=${PORTS[2]}
        ;;
    *)
        log "unknown configuration $cfg"
        return 1
        ;;
    esac
}

run_config() {
    local cfg=$1 run=$2 dbname="echecs_cb_${1}_$2" dir="$OUT/$1.$2"
    start_config "$cfg" "$dbname" "$dir"
    local white=$WHITE black=$BLACK
    local pids
    pids=$(IFS=,; echo "${SERVER_PIDS[*]}")
    log "$cfg run $run: servers $pids, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    local rc=0 dl0 dl1
    dl0=$(grep -c 'deadlock detected' "$PG_DIR/server.log" || true)
    # in the background, so that a signal reaches the trap at once
    timeout 300 node "$ROOT/bench/server/cluster-bench.mjs" --label "$cfg" --games "$GAMES" --plies "$PLIES" --idle "$IDLE" \
        --white-port "$white" --seek-port "$white" --black-port "$black" --accept-port "$black" \
        --echecs-pids "$pids" --redis-pid "$REDIS_PID" --redis-port "$REDIS_PORT" \
        --pg-pid "$PG_PID" --pg-port "$PG_PORT" --db "$dbname" \
        >"$dir/result.json" 2>"$dir/bench.log" &
    wait $! || rc=$?
    dl1=$(grep -c 'deadlock detected' "$PG_DIR/server.log" || true)
    cat "$dir/bench.log" >&2
    if [ "$dl1" != "$dl0" ]; then
        log "$cfg run $run: $((dl1 - dl0)) PostgreSQL deadlock(s) during the run (kept in $OUT/deadlocks.txt)"
        { echo "== $cfg run $run"; grep -A6 'deadlock detected' "$PG_DIR/server.log" | tail -n $((7 * (dl1 - dl0))); } >>"$OUT/deadlocks.txt"
    fi
    if [ "$rc" = 0 ]; then
        sed "s/^{/{\"run\":$run,\"pg_deadlocks\":$((dl1 - dl0)),\"loadavg\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",/" \
            "$dir/result.json" >>"$OUT/results.jsonl"
    else
        {
            echo "$cfg run $run failed (exit $rc), $((dl1 - dl0)) PostgreSQL deadlock(s); the load's last lines and the nodes' messages:"
            tail -n 3 "$dir/bench.log"
            for f in "$dir"/n*.log; do echo "== $f"; grep -v -e puzzles -e '^  ' "$f" | tail -n 12; done
            [ "$dl1" = "$dl0" ] || grep -A6 'deadlock detected' "$PG_DIR/server.log" | tail -n 16
        } | tee -a "$OUT/failures.txt" >&2
    fi
    stop_servers
    psql_pg -c "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" postgres || true
    return "$rc"
}

log "echecs $ECHECS; $RUNS runs of: $CONFIGS; $GAMES games of $PLIES plies; output $OUT"
read -r -a CFGS <<<"$CONFIGS"
for ((run = 1; run <= RUNS; run++)); do
    # rotate the order, so that no configuration always comes first
    n=${#CFGS[@]}
    for ((k = 0; k < n; k++)); do
        cfg=${CFGS[$(((k + run - 1) % n))]}
        # a failed run (a node that stopped, a timeout) is written to failures.txt and tried once more
        run_config "$cfg" "$run" || { log "$cfg run $run: once more"; run_config "$cfg" "$run" || true; }
    done
done

# --- Connected clients that play nothing --------------------------------------
# SOCKETS browsers (default 5000) say hello to n2 of three nodes: memory and
# CPU of each node (n1 runs the lobby and hears every hello), Redis messages.
if [ "${SOCKETS:-5000}" -gt 0 ]; then
    start_config nodes3 echecs_cb_sockets "$OUT/sockets"
    pids=$(IFS=,; echo "${SERVER_PIDS[*]}")
    log "sockets: servers $pids (n1 n2 n3), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    timeout 300 node "$ROOT/bench/server/cluster-bench.mjs" --sockets "${SOCKETS:-5000}" --port "${PORTS[1]}" \
        --echecs-pids "$pids" --redis-pid "$REDIS_PID" --redis-port "$REDIS_PORT" \
        >"$OUT/sockets/result.json" 2>"$OUT/sockets/bench.log" || log "sockets: failed (exit $?)"
    cat "$OUT/sockets/bench.log" >&2
    stop_servers
    psql_pg -c "DROP DATABASE IF EXISTS echecs_cb_sockets WITH (FORCE)" postgres || true
fi

# --- The Redis server's ceiling ---------------------------------------------
# redis-benchmark PUBLISHes PUBLISH_BYTES (default 2000, about the mean
# message measured above) to one channel with two subscribers that read and
# count what they receive (node: a subscriber that formats each message, like
# redis-cli, falls behind and Redis drops it).
if command -v redis-benchmark >/dev/null && [ "${CEILING:-1}" = 1 ]; then
    BYTES=${PUBLISH_BYTES:-2000}
    PAYLOAD=$(head -c "$BYTES" /dev/zero | tr '\0' x)
    for s in 1 2; do
        node -e "
            const c = require('net').connect($REDIS_PORT, '127.0.0.1');
            let n = 0;
            let last = Date.now();
            const done = () => { require('fs').writeFileSync('$OUT/subscriber.$s', n + '\\n'); process.exit(0); };
            c.on('data', (d) => { n += d.length; last = Date.now(); });
            c.write('SUBSCRIBE echecs:ceiling\r\n');
            process.on('SIGTERM', done);
            // done when nothing came for 3 s after the benchmark (the script touches $OUT/ceiling.done)
            setInterval(() => { if (require('fs').existsSync('$OUT/ceiling.done') && Date.now() - last > 3000) done(); }, 200);
            setTimeout(done, 300000);" &
        SUB_PIDS+=($!)
    done
    wait_for "two subscribers" 10 sh -c "redis-cli -p $REDIS_PORT pubsub numsub echecs:ceiling | tail -n 1 | grep -qx 2"
    out_bytes() { redis-cli -p "$REDIS_PORT" info stats | tr -d '\r' | sed -n 's/^total_net_output_bytes://p'; }
    for pipe in 1 16; do
        log "redis-benchmark: PUBLISH of $BYTES bytes to 2 subscribers, 50 clients, pipeline $pipe"
        b0=$(out_bytes)
        timeout 120 redis-benchmark -p "$REDIS_PORT" -c 50 -n 200000 -P "$pipe" -q publish echecs:ceiling "$PAYLOAD" |
            tr '\r' '\n' | grep -a 'requests per second' | tail -n 1 | sed "s/^publish echecs:ceiling x*/PUBLISH/; s/^/pipeline $pipe, $BYTES bytes: /" |
            tee -a "$OUT/redis-ceiling.txt" >&2 || true
        sleep 2
        # what Redis sent meanwhile (the subscribers' messages and the benchmark's replies), and
        # whether a subscriber was dropped for falling behind (its output buffer over the limit)
        echo "  Redis sent $(($(out_bytes) - b0)) bytes (2 x 200,000 deliveries are $((400000 * (BYTES + 47)))); subscribers still there: $(redis-cli -p "$REDIS_PORT" pubsub numsub echecs:ceiling | tail -n 1)" |
            tee -a "$OUT/redis-ceiling.txt" >&2
    done
    touch "$OUT/ceiling.done"
    wait_for "the subscribers to read everything" 60 test -f "$OUT/subscriber.1" -a -f "$OUT/subscriber.2" || true
    for pid in "${SUB_PIDS[@]}"; do stop_pid "$pid" 3; done
    SUB_PIDS=()
    log "bytes received by each subscriber (2 x 200,000 messages of $BYTES bytes sent: $((400000 * (BYTES + 47))) with the framing): $(cat "$OUT"/subscriber.* 2>/dev/null | tr '\n' ' ')" 2>&1 |
        tee -a "$OUT/redis-ceiling.txt"
    redis-cli -p "$REDIS_PORT" info clients | grep -a -E 'connected_clients|client_recent_max_output' | tee -a "$OUT/redis-ceiling.txt" >&2 || true
fi

if [ -s "$OUT/results.jsonl" ]; then
    node "$ROOT/bench/server/cluster-bench.mjs" --summary "$OUT/results.jsonl" | tee "$OUT/summary.md"
fi
