#!/bin/sh
# Side by side with Popeye on the same problems, one thread each, in one run:
#   sh bench/solver/compare_popeye.sh POPEYE_BINARY [ROUNDS] [FILE.inp ...]
# Popeye is not installed by the project: build it from its own sources and
# give the path of its `py` binary. Each problem is solved ROUNDS times
# (default 3) by each program, alternately; the least time of each is shown,
# Popeye's as it reports it ("Time = "), echecs' from solver_bench.
# With CALLGRIND=1, each is instead run once under valgrind's callgrind and
# the instructions are shown in millions, less each program's start-up (the
# instructions it takes for a bare-kings #1): a figure a loaded machine does
# not change.
set -eu
cd "$(dirname "$0")/../.."
py=${1:?usage: compare_popeye.sh POPEYE_BINARY [ROUNDS] [FILE.inp ...]}
rounds=${2:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
files=${*:-bench/solver/problems/chess.inp bench/solver/problems/alice.inp}
bench=build/bench/solver/solver_bench
least() { if [ -z "$1" ]; then echo "$2"; else echo "$1 $2" | awk '{print ($2 + 0 < $1 + 0) ? $2 : $1}'; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
instructions() {  # millions of instructions of the command
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/refs:/ {gsub(",", "", $NF); printf "%.1f", $NF / 1e6}'
}
if [ "${CALLGRIND:-0}" = 1 ]; then
  printf 'begin\npieces white ke1 black ke8\nstipulation #1\nend\n' > "$tmp/bare.inp"
  base_py=$(instructions "$py" -maxmem 256M "$tmp/bare.inp")
  base_ec=$(instructions "$bench" --threads 1 "$tmp/bare.inp")
  echo "start-up: popeye ${base_py}M, echecs ${base_ec}M instructions"
  printf '%-50s %-8s %12s %12s %8s\n' problem stip popeye_Minstr echecs_Minstr ratio
else
  printf '%-50s %-8s %10s %10s %8s\n' problem stip popeye_s echecs_s ratio
fi
for f in $files; do
  # One file per problem: split at "next", each wrapped in begin/end.
  awk -v dir="$tmp" '
    BEGIN { n = 0; out = sprintf("%s/p%03d.inp", dir, n) }
    /^[[:space:]]*(begin|end)[[:space:]]*$/ { next }
    /^[[:space:]]*next[[:space:]]*$/ { print "end" > out; close(out); n++; out = sprintf("%s/p%03d.inp", dir, n); next }
    { if (!(out in started)) { print "begin" > out; started[out] = 1 } print > out }
    END { print "end" > out }' "$f"
  for p in "$tmp"/p*.inp; do
    name=$(grep -i -m1 -E '^(author|title)' "$p" | cut -d' ' -f2- | cut -c1-48)
    stip=$(grep -i -m1 -E '^stip' "$p" | awk '{print $2}')
    if [ "${CALLGRIND:-0}" = 1 ]; then
      a=$(instructions "$py" -maxmem 256M "$p"); b=$(instructions "$bench" --threads 1 "$p")
      echo "$name|$stip|$a|$b|$base_py|$base_ec" | awk -F'|' '{ x = $3 - $5; y = $4 - $6;
        printf "%-50s %-8s %12.1f %12.1f %8.1f\n", $1, $2, x, y, (y > 0 ? x / y : 0) }'
      continue
    fi
    best_py=""; best_ec=""
    i=0
    while [ $i -lt "$rounds" ]; do
      t=$("$py" -maxmem 1024M "$p" 2>/dev/null | awk '/Time =/ {s += $(NF-1)} END {print s}')
      e=$("$bench" --threads 1 "$p" | awk '$NF ~ /^[0-9.]+$/ && !/^total/ {s += $NF} END {print s}')
      best_py=$(least "$best_py" "$t")
      best_ec=$(least "$best_ec" "$e")
      i=$((i + 1))
    done
    ratio=$(echo "$best_py $best_ec" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2; else print "-" }')
    printf '%-50s %-8s %10s %10s %8s\n' "$name" "$stip" "$best_py" "$best_ec" "$ratio"
  done
  rm -f "$tmp"/p*.inp
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
