#!/usr/bin/env python3
"""The table of PERFORMANCE.md from compare_files.py's output.

    python3 bench/solver/side_by_side_table.py OUTPUT.txt

Each row of the output is a problem (FILE:N): its stipulation and both
times, or why one of them did not finish. Problems of the files named
alice.inp are Alice; the others are help and series play (h, ser-, reci-h)
or battle play (helpselfplay with it). A file name met again from problem 1 is the next file of
that name (BEISPIEL/intell.inp, then TESTS/intell.inp), counted as `#2`.
"""
import re
import statistics
import sys

rows = []
seen = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(\S+):(\d+)\s+(\S+)\s+(.*)$", line.rstrip())
    if not m or line.startswith("#"):
        continue
    name, n, stip, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    last = seen.get(name)
    occurrence = last[1] + 1 if last and n <= last[0] else (last[1] if last else 1)
    seen[name] = (n, occurrence)
    fields = rest.split()
    if "refused" in rest:
        state = "refused"
    elif fields[1].startswith(">"):
        state = "both timeout" if fields[0].startswith(">") else "timeout"
    elif fields[0].startswith(">"):
        state = "popeye timeout"
    else:
        state = "finished"
    ratio = float(fields[2]) if state == "finished" else None
    rows.append((name, occurrence, n, stip, state, ratio, rest))


def line(label, sel):
    done = [r[5] for r in sel if r[4] == "finished"]
    refused = sum(r[4] == "refused" for r in sel)
    late = sum(r[4] in ("timeout", "both timeout") for r in sel)
    both = sum(r[4] == "both timeout" for r in sel)
    median = statistics.median(done) if done else float("nan")
    late_text = f"{late} (Popeye too: {both})" if both else str(late)
    print(f"| {label} | {len(sel)} | {refused} | {late_text} | {len(done)} | **{median:.2f}** | "
          f"{sum(x <= 1 for x in done)} | {sum(x <= 2 for x in done)} | {max(done) if done else 0:.1f}x |")


print("| problems | in all | refused by echecs | echecs over the limit | both finished | echecs / Popeye, median | at most 1x | at most 2x | worst |")
print("|---|---|---|---|---|---|---|---|---|")
# helpselfplay (hs#) is counted with battle play, as in PERFORMANCE.md
kind = lambda r: "alice" if r[0] == "alice.inp" else "help" if re.match(r"(?i)(h(?!s)|ser-|reci-h)", r[3]) else "battle"
line("orthodox help and series play", [r for r in rows if kind(r) == "help"])
line("of them, BEISPIEL/intell.inp", [r for r in rows if kind(r) == "help" and r[0] == "intell.inp" and r[1] == 1])
line("of them, BEISPIEL/hpint.inp", [r for r in rows if kind(r) == "help" and r[0] == "hpint.inp"])
line("orthodox battle play", [r for r in rows if kind(r) == "battle"])
line("Alice", [r for r in rows if kind(r) == "alice"])
line("all", rows)
