#!/usr/bin/env python3
"""The search by mating positions (intelligent mode) against the plain search, on random positions.

usage: python3 bench/solver/compare_intelligent.py ECHECS STIP COUNT SEED [MEN [MODE]]

Draws COUNT legal orthodox positions (kings, up to MEN other men a side, now
and then the kings and rooks at home with castling rights), solves each with
`echecs solve` twice, with --intelligent off and MODE (on, or auto: the
plain search first when there are many targets), and compares the
solutions line by line (UCI format). Prints each difference and a summary;
exits 1 on a difference. Each solve is bounded by a 60 s timeout; a
position that takes longer is left out (and counted).
"""
import random, subprocess, sys

echecs, stip, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
men = int(sys.argv[5]) if len(sys.argv) > 5 else 6
mode = sys.argv[6] if len(sys.argv) > 6 else 'on'
rng = random.Random(seed)
SQ = [f + r for r in '12345678' for f in 'abcdefgh']


def draw():
    grid, castling = {}, ''
    if rng.random() < 0.3:
        grid.update({'e1': 'K', 'e8': 'k', 'a1': 'R', 'h1': 'R', 'a8': 'r', 'h8': 'r'})
        castling = 'KQkq'
    else:
        a, b = rng.sample(SQ, 2)
        grid[a], grid[b] = 'K', 'k'
    for side in 'wb':
        for _ in range(rng.randint(1, men)):
            p = rng.choice('QRRBBNNPPPPP')
            sq = rng.choice([s for s in SQ if s not in grid])
            if p == 'P' and sq[1] in '18':
                continue
            grid[sq] = p if side == 'w' else p.lower()
    rows = []
    for r in '87654321':
        row, empty = '', 0
        for f in 'abcdefgh':
            p = grid.get(f + r)
            if p:
                row += (str(empty) if empty else '') + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows) + ' b ' + (castling or '-') + ' - 0 1'


def solve(fen, plain):
    cmd = [echecs, 'solve', '--fen', fen, '-s', stip, '--threads', '1', '--format', 'uci', '--timeout', '60']
    cmd += ['--intelligent', 'off' if plain else mode]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:  # --timeout not honoured: counted as a timeout, and said
        print(f'over 90 s despite --timeout 60: {" ".join(cmd)}', file=sys.stderr)
        return 'timeout'
    if p.returncode == 3:
        return 'timeout'
    if p.returncode != 0:
        return None
    return sorted(l for l in p.stdout.splitlines() if l and not l.startswith('#') and not l.startswith('solutions'))


done = differ = solved = slow = 0
while done < count:
    fen = draw()
    a = solve(fen, plain=True)
    if a is None:
        continue  # an illegal draw (the side not to move in check, ...)
    if a == 'timeout':
        continue
    b = solve(fen, plain=False)
    if b == 'timeout':  # too many targets to search in 60 s: not compared
        slow += 1
        continue
    done += 1
    solved += bool(a)
    if a != b:
        differ += 1
        print(f'DIFFERENT {stip} {fen}\n  plain: {a}\n  intelligent: {b}')
print(f'{stip}: {done} positions, {solved} with solutions, {differ} different ({slow} more left out: '
      'over 60 s by targets)')
sys.exit(1 if differ else 0)
