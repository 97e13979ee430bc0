#!/bin/sh
# Regenerates one game's training positions and network, as committed:
#   sh scripts/nnue-train.sh chess|alice|avalanche [ECHECS] [WORKDIR]
# ECHECS: the echecs binary (default build/src/cli/echecs); WORKDIR: where
# the positions go (default /var/tmp/echecs-nnue). Writes data/nets/GAME.nnue
# and GAME.train.log beside it. Seeds are fixed and every step runs on one
# thread, so the same binary gives the same bytes. Times and figures:
# docs/ENGINE.md "NNUE".
set -eu
cd "$(dirname "$0")/.."
game=${1:?usage: sh scripts/nnue-train.sh chess|alice|avalanche [ECHECS] [WORKDIR]}
echecs=${2:-build/src/cli/echecs}
work=${3:-/var/tmp/echecs-nnue}
mkdir -p "$work"
# Positions with random moves mixed in (--random-rate) hold the unbalanced
# positions a network must have seen.
case "$game" in
chess)
  # Third generation (2026-12-06): the second generation's positions, played
  # with the first network (commit 06064af's data/nets/chess.nnue), and about
  # as many again played with the second (commit 1c7d3a5's), both read from
  # the history. The seed-5001 run was stopped by hand after about 15,220
  # games: its first 1,261,875 positions are the ones used. Two runs at a
  # time, one per core.
  git show 06064af:data/nets/chess.nnue >"$work/chess-gen1.nnue"
  git show 1c7d3a5:data/nets/chess.nnue >"$work/chess-gen2.nnue"
  play() { "$echecs" selfplay --variant chess --nodes 2000 "$@"; }
  play --games 19000 --seed 3001 --net "$work/chess-gen1.nnue" --out "$work/chess3.tsv" &
  first=$!
  play --games 19000 --seed 4001 --random-rate 0.05 --record-max 4000 --net "$work/chess-gen1.nnue" \
    --out "$work/chess4.tsv"
  wait "$first"
  play --games 15300 --seed 5001 --net "$work/chess-gen2.nnue" --out "$work/chess5-more.tsv" &
  first=$!
  play --games 19000 --seed 6001 --random-rate 0.05 --record-max 4000 --net "$work/chess-gen2.nnue" \
    --out "$work/chess6.tsv"
  wait "$first"
  head -n 1261875 "$work/chess5-more.tsv" >"$work/chess5.tsv"
  cat "$work/chess3.tsv" "$work/chess4.tsv" "$work/chess5.tsv" "$work/chess6.tsv" >"$work/chess-all.tsv"
  data=chess-all.tsv
  set -- --hidden 128 --king-buckets 2 --epochs 10 --lambda 1.0 --seed 1
  ;;
alice)
  # --hand-eval: the game plays with this network; its data came from the
  # hand-written evaluation.
  "$echecs" selfplay --variant alice --games 28000 --nodes 1000 --seed 101 --hand-eval --out "$work/alice1.tsv" &
  first=$!
  "$echecs" selfplay --variant alice --games 28000 --nodes 1000 --seed 201 --random-rate 0.05 --record-max 4000 \
    --hand-eval --out "$work/alice2.tsv"
  wait "$first"
  cat "$work/alice1.tsv" "$work/alice2.tsv" >"$work/alice-all.tsv"
  data=alice-all.tsv
  set -- --hidden 64 --king-buckets 1 --epochs 6 --lambda 1.0 --seed 1
  ;;
avalanche)
  "$echecs" selfplay --variant avalanche --games 18000 --nodes 1000 --seed 301 --random-rate 0.05 --record-max 4000 \
    --hand-eval --out "$work/avalanche1.tsv" &
  first=$!
  "$echecs" selfplay --variant avalanche --games 18000 --nodes 1000 --seed 401 --hand-eval --out "$work/avalanche2.tsv"
  wait "$first"
  cat "$work/avalanche1.tsv" "$work/avalanche2.tsv" >"$work/avalanche-all.tsv"
  data=avalanche-all.tsv
  set -- --hidden 128 --king-buckets 2 --epochs 6 --lambda 1.0 --seed 1
  ;;
*)
  echo "nnue-train.sh: no recipe for '$game' (chess, alice, avalanche)" >&2
  exit 2
  ;;
esac
"$echecs" nnue-train --variant "$game" --data "$work/$data" --out "data/nets/$game.nnue" "$@" 2>&1 |
  tee "data/nets/$game.train.log"
