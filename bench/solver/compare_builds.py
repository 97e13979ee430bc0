#!/usr/bin/env python3
"""Two builds of echecs side by side on Popeye's problems, one at a time.

    python3 bench/solver/compare_builds.py OLD NEW [--rounds N] [--timeout S] FILE.inp:N[,N...] ...

Each problem (numbered as compare_files.py numbers them) is solved by OLD
and then NEW, one thread each, in turn, for each round; the least wall-clock
time of each is kept (start-up included), and the lines they print (but the
summary line with its time and node count) must be the same. Prints one row
per problem and the totals.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_files import problems, run  # noqa: E402


def solved_lines(out):
    return [l for l in out.splitlines() if "(complete)" not in l and "incomplete" not in l]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("problems", nargs="+", help="FILE.inp:N[,N...]")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    total = {a.old: 0.0, a.new: 0.0}
    print(f"{'problem':<24} {'old_s':>8} {'new_s':>8} {'old/new':>8}  lines")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in a.problems:
            path, _, numbers = spec.rpartition(":")
            texts = problems(path)
            for n in (int(x) for x in numbers.split(",")):
                inp = os.path.join(tmp, "p.inp")
                open(inp, "w", encoding="latin-1").write(texts[n - 1])
                best, out = {}, {}
                for _ in range(a.rounds):
                    for b in (a.old, a.new):
                        t, o, _ = run([b, "solve", "-i", inp, "--threads", "1", "--timeout", str(a.timeout)],
                                      a.timeout + 5)
                        if t is not None:
                            best[b] = min(best.get(b, t), t)
                            out[b] = o
                name = f"{os.path.basename(path)}:{n}"
                if len(best) < 2:
                    print(f"{name:<24} {'timeout':>8}")
                    continue
                same = solved_lines(out[a.old]) == solved_lines(out[a.new])
                for b in best:
                    total[b] += best[b]
                print(f"{name:<24} {best[a.old]:8.3f} {best[a.new]:8.3f} {best[a.old] / best[a.new]:8.2f}  "
                      f"{'same' if same else 'DIFFERENT'}")
    print(f"total: old {total[a.old]:.1f} s, new {total[a.new]:.1f} s, old/new {total[a.old] / total[a.new]:.2f}")


if __name__ == "__main__":
    main()
