#!/usr/bin/env python3
"""Side by side with Popeye on Popeye's own files, one problem at a time.

    python3 bench/solver/compare_files.py POPEYE ECHECS [--rounds N] [--timeout S] FILE.inp ...

Each file is cut into its problems (English, German or French keywords, any
abbreviation Popeye accepts for begin, next and end), each problem is given
to both programs alone, one thread each, in turn, and the least wall-clock
time of each over the rounds is kept (start-up included: that is what a
composer waits for). The help lines each prints, twin by twin, are compared;
a problem echecs refuses is listed as refused. Battle play compares the keys
and tries only; parry series and structured stipulations of help, series or
parry play ('sstip:' and the tree in the table) compare every line.
Popeye is not installed by the project: build it from its own sources and
give its `py` binary.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

BEGIN = ("beginproblem", "anfangproblem", "debutprobleme")
NEXT = ("nextproblem", "weiteresproblem", "asuivre")
END = ("endproblem", "endeproblem", "finprobleme")


def keyword(line, words):
    """The line's first word is a prefix (of at least 3 letters) of one of `words`."""
    w = line.split()[0].lower() if line.split() else ""
    return len(w) >= 3 and any(x.startswith(w) for x in words)


def problems(path):
    """The file's problems, each as a whole input in the file's language."""
    lines = open(path, encoding="latin-1").read().splitlines()
    first = next((l for l in lines if keyword(l, BEGIN)), BEGIN[0])
    lang = next((i for i, b in enumerate(BEGIN) if keyword(first, (b,))), 0)
    begin, end = BEGIN[lang], END[lang]
    out, cur = [], []
    for l in lines:
        if keyword(l, BEGIN):
            continue
        if keyword(l, NEXT) or keyword(l, END):
            if any(s.strip() for s in cur):
                out.append("\n".join([begin] + cur + [end]) + "\n")
            cur = []
            continue
        if l.split() and l.split()[0].lower().startswith(("prot", "protocol")):
            continue  # Popeye's protocol: no file written
        cur.append(l)
    return out


# Popeye writes the pieces in the input's language; echecs in English (S the knight, as Popeye).
LETTERS = ({}, {"D": "Q", "T": "R", "L": "B"}, {"R": "K", "D": "Q", "T": "R", "F": "B", "C": "S"})


def norm(line, lang=0):
    line = line.strip().replace("*", "x")
    line = re.sub(r"(?<![A-Za-z])([A-Z])(?=[a-h][1-8])|(?<==)([A-Z])",
                  lambda m: LETTERS[lang].get(m.group(0), m.group(0)), line)
    line = re.sub(r"\s+([#+!?=])(?![QRBSN])", r"\1", line)
    # Popeye writes "ep." and ends a proof game with "dia"; echecs "e.p.", nothing.
    line = re.sub(r"\s+dia$", "", line.replace("e.p.", "ep."))
    return re.sub(r"\s+", " ", line)


def language(text):
    return next((i for i, b in enumerate(BEGIN) if keyword(text.split("\n", 1)[0], (b,))), 0)


def lines_of(text, lang=0, battle=False):
    """Help lines per twin (a, b, ...), or in battle play the keys and tries
    with their marks (the two lay out threats and variations differently):
    what both must print alike."""
    out, twin = {}, "a"
    for raw in text.splitlines():
        s = raw.strip()
        if battle:
            m = re.match(r"^1\.(?!\.)(\S+?)([!?])", norm(s, lang))
            if m:
                out.setdefault(twin, set()).add(m.group(1) + m.group(2))
            m = re.match(r"^\+?([a-z])\)", s)
            if m:
                twin = m.group(1)
            continue
        m = re.match(r"^\+?([a-z])\)", s)  # "+c)": a continued twin
        if m:
            twin = m.group(1)
            continue
        if re.match(r"^\d+\.(\.\.)?([A-Z]?[a-h][1-8]|0-0)", s):  # a move, not a title's "1. Preis"
            out.setdefault(twin, set()).add(norm(s, lang))
    return out


def run(cmd, timeout, cwd=None):
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, "", 0
    return time.perf_counter() - t, p.stdout, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("popeye")
    ap.add_argument("echecs")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    ratios, rows = [], 0
    print(f"{'problem':<34} {'stip':<9} {'popeye_s':>9} {'echecs_s':>9} {'ratio':>7}  answers")
    with tempfile.TemporaryDirectory() as tmp:
        for f in a.files:
            for i, text in enumerate(problems(f)):
                path = os.path.join(tmp, "p.inp")
                open(path, "w", encoding="latin-1").write(text)
                stip = next((l.split()[1] for l in text.splitlines()
                             if len(l.split()) > 1 and l.split()[0].lower().startswith(("stip", "ford", "enon"))), "?")
                # sstipulation: its tree (after the side and Popeye's '-'), marked 'sstip:'
                stree = next(("".join(l.split()[2:]).lstrip("-") for l in text.splitlines()
                              if len(l.split()) > 2 and l.split()[0].lower().startswith("sstip")), None)
                if stree is not None and stip == "?":
                    stip = "sstip:" + stree
                name = f"{os.path.basename(f)}:{i + 1}"
                best_p = best_e = None
                out_p = out_e = ""
                code_e = 0
                for _ in range(a.rounds):
                    # in the temporary directory: a file's LaTeX command makes Popeye write a .tex file
                    tp, op, _ = run([a.popeye, path], a.timeout, tmp)
                    te, oe, code_e = run([a.echecs, "solve", "-i", path, "--threads", "1",
                                          "--timeout", str(a.timeout)], a.timeout + 5)
                    if tp is not None:
                        best_p = tp if best_p is None else min(best_p, tp)
                        out_p = op
                    if te is not None:
                        best_e = te if best_e is None else min(best_e, te)
                        out_e = oe
                if code_e in (2, 4) and not lines_of(out_e):
                    print(f"{name:<34} {stip:<9} {'':>9} {'':>9} {'':>7}  refused by echecs")
                    continue
                incomplete = code_e == 3  # stopped by the timeout (SOLVER.md exit statuses)
                # exact- is of the play it prefixes (exact-s#2: battle play, exact-dia: a proof game)
                # parry series are written line by line; a structured one is battle play when its
                # branch is an attacker's (Na[...]d) without Popeye's ?+?
                battle = not re.match(r"(?i)(ser-|h|reci-h|dia|a=>b|pser-|phser-|\d+->)", re.sub(r"(?i)^exact-", "", stip))
                if stip.startswith("sstip:"):
                    battle = bool(re.match(r"^(\d+:)?\d+a", stree)) and "?+?" not in stree
                same = lines_of(out_p, language(text), battle) == lines_of(out_e, 0, battle)
                answers = ("same keys" if battle else "same") if same else "DIFFERENT"
                if best_p is None or best_e is None or incomplete:
                    answers = "timeout " + ("popeye" if best_p is None else "echecs")
                ps = f"{best_p:.3f}" if best_p is not None else f">{a.timeout:g}"
                es = f"{best_e:.3f}" if best_e is not None and not incomplete else f">{a.timeout:g}"
                ratio = ""
                if best_p is not None and best_e is not None and not incomplete:
                    ratios.append(best_e / best_p)
                    ratio = f"{best_e / best_p:.2f}"
                print(f"{name:<34} {stip:<9} {ps:>9} {es:>9} {ratio:>7}  {answers}", flush=True)
                rows += 1
    if ratios:
        print(f"{len(ratios)} problems both finished: echecs/popeye median {statistics.median(ratios):.2f}, "
              f"max {max(ratios):.2f}, at most 2x on {sum(r <= 2 for r in ratios)}")
    print("load:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    sys.exit(main())
