#!/bin/sh
# Builds the fuzz targets with clang and runs each for SECONDS (default 600).
#   sh fuzz/run.sh [SECONDS] [fen|san|pgn|popeye|nnue|accounts|http|ws|cluster ...]
# Only the targets asked for are built (http and ws need the engine and the
# server; the others only the rules core, the solver or the accounts library).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-fen san pgn popeye nnue accounts http ws cluster}
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DECHECS_FUZZ=ON -DECHECS_CORE_ONLY=OFF -DECHECS_TESTS=OFF \
  -DECHECS_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-fuzz $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) >/dev/null
status=0
for t in $targets; do
  mkdir -p "fuzz/corpus-$t"
  cp -n fuzz/seeds/$t/* "fuzz/corpus-$t/" 2>/dev/null || true
  echo "== fuzz_$t for ${secs}s"
  log=$(mktemp)
  # The server's targets keep a server between inputs (its rooms, its
  # database): not leaks. Their coverage maps are large, and libFuzzer's
  # entropic schedule then costs more than the runs themselves.
  case $t in http | ws | cluster) flags="-detect_leaks=0 -entropic=0" ;; *) flags="" ;; esac
  [ -f "fuzz/$t.dict" ] && flags="$flags -dict=fuzz/$t.dict"
  # shellcheck disable=SC2086
  build-fuzz/fuzz/fuzz_$t $flags -max_total_time="$secs" -print_final_stats=1 "fuzz/corpus-$t" >"$log" 2>&1 || status=1
  tail -15 "$log"
  rm -f "$log"
done
exit $status
