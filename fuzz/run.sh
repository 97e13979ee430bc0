#!/bin/sh
# Builds the fuzz targets with clang and runs each for SECONDS (default 600).
#   sh fuzz/run.sh [SECONDS] [fen|san|pgn|popeye|nnue|accounts ...]
set -eu
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-fen san pgn popeye nnue accounts}
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DECHECS_FUZZ=ON -DECHECS_CORE_ONLY=ON -DECHECS_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-fuzz >/dev/null
for t in $targets; do
  mkdir -p "fuzz/corpus-$t"
  cp -n fuzz/seeds/$t/* "fuzz/corpus-$t/" 2>/dev/null || true
  echo "== fuzz_$t for ${secs}s"
  build-fuzz/fuzz/fuzz_$t -max_total_time="$secs" -print_final_stats=1 "fuzz/corpus-$t" 2>&1 | tail -15
done
