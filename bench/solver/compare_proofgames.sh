#!/bin/sh
# Proof games side by side with Popeye, one thread each, one run:
#   sh bench/solver/compare_proofgames.sh POPEYE_BINARY [ECHECS_BINARY] [FILE.inp ...]
# Each file is solved whole by each program (Popeye with -maxmem 1024M); the
# seconds of each problem are Popeye's own ("solution finished. Time = ...")
# and echecs's ("seconds" of `echecs solve --format json`), side by side with
# the number of solutions each found. The files must have no twins and no
# problem that one of the programs refuses, so that the problems pair up in
# order (bench/solver/proofgames/*.inp are such files).
set -eu
cd "$(dirname "$0")/../.."
py=${1:?usage: compare_proofgames.sh POPEYE_BINARY [ECHECS_BINARY] [FILE.inp ...]}
echecs=${2:-build/src/cli/echecs}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
files=${*:-bench/solver/proofgames/chess.inp bench/solver/proofgames/alice.inp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-44s %-12s %9s %9s %7s %5s %5s\n' problem stip popeye_s echecs_s ratio py_n ec_n
for f in $files; do
  "$py" -maxmem 1024M "$f" > "$tmp/py.out" 2>&1 || true
  # Popeye: a solution line ends with "dia" or "a=>b"; a problem ends with its time.
  awk '/ (dia|a=>b)$/ { n++ } /(solution finished|Loesung beendet|solution terminee)/ {
         sub(/.*= */, ""); sub(/ s.*/, ""); print $0, n + 0; n = 0 }' "$tmp/py.out" > "$tmp/py.txt"
  "$echecs" solve -i "$f" --threads 1 --format json 2>/dev/null > "$tmp/ec.json" || true
  python3 - "$tmp/ec.json" > "$tmp/ec.txt" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    title = (r.get("title") or "").split(";")[0][:44]
    print("%s\t%s\t%.3f\t%d" % (title, r["stipulation"], r["seconds"], len(r.get("help", []))))
EOF
  paste "$tmp/ec.txt" "$tmp/py.txt" | awk -F'\t' '{ split($5, p, " ");
      printf "%-44s %-12s %9.3f %9.3f %7.2f %5d %5d\n", $1, $2, p[1], $3, ($3 > 0 ? p[1] / $3 : 0), p[2], $4 }'
done
