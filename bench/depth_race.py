#!/usr/bin/env python3
"""Time to depth N of UCI engines on the same positions, side by side.

usage: depth_race.py DEPTH NAME=CMD[|OPTION=VALUE...] [NAME=CMD ...]
(e.g. 'nocut=echecs|Search Off=probcut' sets that UCI option after Hash.)
Each engine: one thread, Hash 64, ucinewgame before each position; the time
is from 'go depth N' to 'bestmove' (the search of depth N complete), as
the GUI sees it; nodes are those of the last 'info' line with nodes."""
import subprocess, sys, time

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"),
    ("middlegame", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("QGD", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"),
    # The two endings issue 27 asks for: rooks with four pawns each on both
    # wings, and bishop against knight with four pawns each.
    ("rook ending", "8/1p3pk1/p5p1/8/P1r5/6P1/1R3PKP/8 w - - 0 35"),
    ("minor-piece ending", "8/5pk1/4p1p1/3nP3/1p3P2/6P1/2B2K1P/8 w - - 0 40"),
]

def run(spec, fen, depth):
    cmd, *options = spec.split("|")
    p = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    def wait(tok):
        for line in p.stdout:
            if line.startswith(tok): return line
    send("uci"); wait("uciok")
    send("setoption name Threads value 1"); send("setoption name Hash value 64")
    for o in options:
        name, value = o.split("=", 1)
        send(f"setoption name {name} value {value}")
    send("ucinewgame"); send("isready"); wait("readyok")
    send("position fen " + fen)
    t0 = time.monotonic(); send(f"go depth {depth}")
    t = None; nodes = None
    for line in p.stdout:
        w = line.split()
        if w[:1] == ["info"] and "nodes" in w:
            nodes = int(w[w.index("nodes") + 1])
        if line.startswith("bestmove"):
            t = time.monotonic() - t0
            break
    send("quit"); p.wait()
    return t, nodes

depth = int(sys.argv[1])
engines = [a.split("=", 1) for a in sys.argv[2:]]
print("position | " + " | ".join(f"{n} s (nodes)" for n, _ in engines))
tot = {n: 0.0 for n, _ in engines}
for name, fen in POSITIONS:
    row = []
    for n, c in engines:
        t, nodes = run(c, fen, depth)
        tot[n] += t
        row.append(f"{t:.2f} ({nodes})")
    print(name + " | " + " | ".join(row), flush=True)
print("total | " + " | ".join(f"{tot[n]:.2f}" for n, _ in engines))
