#!/usr/bin/env python3
"""How often an engine converts a won pawnless ending against a defender
(docs/STRENGTH.md "Won endings against Stockfish").

    python3 bench/engine/endgame_conversion.py KIND COUNT SEED ENGINE DEFENDER MS

KIND is KBNK (bishop and knight against a bare king), KQKR (queen against
rook), KRK or KPK (king and pawn against king: many of those positions are
drawn, so compare two engines on the same positions). COUNT random positions (seeded: the same SEED gives the same
positions), the engine's side (White) to move, neither king in check. Each
is played with ENGINE as White and DEFENDER as Black, both UCI, MS
milliseconds a move (`go movetime`), from a fresh fifty-move count: a
position is won when the defender is mated inside 100 plies (the engine may
capture on the way: queen against rook). It is not won when the defender
captures a piece, the position repeats three times, a
stalemate, or the 100 plies run out (a pawn must promote and mate in them). Prints one line per position and the
count.
"""
import random
import subprocess
import sys

MATERIAL = {'KBNK': ('BN', ''), 'KQKR': ('Q', 'R'), 'KRK': ('R', ''), 'KPK': ('P', '')}


def attacks(sq, kind, occ):
    f, r = sq % 8, sq // 8
    out = set()
    steps = {'N': ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
             'K': ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))}
    if kind == 'P':  # White's pawn
        return {(r + 1) * 8 + f + df for df in (-1, 1) if 0 <= f + df < 8 and r < 7}
    if kind in steps:
        for df, dr in steps[kind]:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                out.add((r + dr) * 8 + f + df)
        return out
    dirs = []
    if kind in 'BQ':
        dirs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    if kind in 'RQ':
        dirs += [(1, 0), (-1, 0), (0, 1), (0, -1)]
    for df, dr in dirs:
        x, y = f + df, r + dr
        while 0 <= x < 8 and 0 <= y < 8:
            out.add(y * 8 + x)
            if y * 8 + x in occ:
                break
            x, y = x + df, y + dr
    return out


def placement(pieces):
    rows = []
    for r in range(7, -1, -1):
        row, empty = '', 0
        for f in range(8):
            p = pieces.get(r * 8 + f)
            if p:
                row += (str(empty) if empty else '') + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows)


def random_position(rng, strong, weak):
    while True:
        sq = rng.sample(range(64), 2 + len(strong) + len(weak))
        pieces = {sq[0]: 'K', sq[1]: 'k'}
        for i, p in enumerate(strong):
            pieces[sq[2 + i]] = p
        for i, p in enumerate(weak):
            pieces[sq[2 + len(strong) + i]] = p.lower()
        if any(p == 'P' and s // 8 in (0, 7) for s, p in pieces.items()):
            continue
        occ = set(pieces)
        if any(sq[1] in attacks(s, p, occ) for s, p in pieces.items() if p.isupper()):
            continue
        if any(sq[0] in attacks(s, p.upper(), occ) for s, p in pieces.items() if p.islower()):
            continue
        return pieces


class Uci:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('uci')
        self.wait('uciok')
        self.send('setoption name Hash value 16')
        self.send('ucinewgame')
        self.send('isready')
        self.wait('readyok')

    def send(self, s):
        self.p.stdin.write(s + '\n')
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError('the engine stopped')
            lines.append(line)
            if line.startswith(token):
                return lines

    def go(self, fen, moves, ms):
        self.send(f'position fen {fen}' + (' moves ' + ' '.join(moves) if moves else ''))
        self.send(f'go movetime {ms}')
        lines = self.wait('bestmove')
        return lines[-1].split()[1], ' '.join(lines)

    def quit(self):
        self.send('quit')
        self.p.wait()


def square(name):
    return (int(name[1]) - 1) * 8 + ord(name[0]) - ord('a')


def play(fen, pieces, engine, defender, ms):
    sides = (Uci(engine), Uci(defender))
    moves, seen = [], {}
    try:
        for ply in range(101):
            move, info = sides[ply % 2].go(fen, moves, ms)
            if move in ('(none)', '0000'):
                if ply % 2 == 1 and 'mate 0' in info:
                    return True, f'mate in {ply} plies'
                return False, f'no legal move at ply {ply} (stalemate)'
            if ply == 100:
                return False, 'no mate in 100 plies'
            frm, to = square(move[:2]), square(move[2:4])
            if to in pieces and ply % 2:
                return False, f'the defender captured at ply {ply + 1}'
            pieces[to] = pieces.pop(frm) if len(move) == 4 else move[4].upper()  # a promotion
            moves.append(move)
            key = (placement(pieces), ply % 2)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] == 3:
                return False, f'threefold repetition at ply {ply + 1}'
    finally:
        for s in sides:
            s.quit()


def main():
    if len(sys.argv) != 7 or sys.argv[1] not in MATERIAL:
        sys.exit(__doc__)
    kind, count, seed, engine, defender, ms = sys.argv[1:]
    strong, weak = MATERIAL[kind]
    rng = random.Random(int(seed))
    won = 0
    for i in range(int(count)):
        pieces = random_position(rng, strong, weak)
        fen = placement(pieces) + ' w - - 0 1'
        ok, how = play(fen, dict(pieces), engine, defender, int(ms))
        won += ok
        print(f'{kind} {i + 1} {fen}: {how}', flush=True)
    print(f'{kind}: {won}/{count} won', flush=True)


main()
