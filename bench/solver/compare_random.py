#!/usr/bin/env python3
"""Side by side with Popeye on random sparse positions, for one stipulation.

usage: POPEYE=/path/to/py [ECHECS=build/src/cli/echecs] [ALICE=1] [POSTKEY=1] [SETPLAY=1] [THREAT=n] [OPTIONS='maxflightsquares 1 ...'] [CASTLING=1] [MULT=60] \
       python3 bench/solver/compare_random.py STIP COUNT SEED [MEN]

STIP may be a structured stipulation, 'sstip:' and Popeye's text after the
keyword ('sstip:black 8hh[/1d[x]a{!+}]', 'sstip:white - 5h[#]?+?h').

Draws COUNT*MULT positions (kings and up to MEN other men for White, half as
many for Black; ALICE=1: each man on board A or B), solves them all with
echecs, keeps COUNT of them (at most a quarter without a solution), solves
those with Popeye (option variation) and compares, problem by problem, every
key, threat, defence and continuation (battle play) or every help line, in
the moves' text; r#'s bound attacker (Popeye's "?!?") is compared with
echecs's note. Prints the differences and a summary line.
"""
import json, os, random, re, subprocess, sys, tempfile
ALICE = os.environ.get('ALICE') == '1'
POSTKEY = os.environ.get('POSTKEY') == '1'  # battle play after the key: the defender moves first
THREAT = os.environ.get('THREAT', '')  # battle play: Popeye's 'threat n'
OPTIONS = os.environ.get('OPTIONS', '')  # more Popeye options, given to both programs
CASTLING = os.environ.get('CASTLING') == '1'  # kings on e1 and e8, rooks on their home squares (three in four)
SETPLAY = os.environ.get('SETPLAY') == '1'  # help and series play: the set play's lines too
TMP = tempfile.mkdtemp()
CAND, LAST = os.path.join(TMP, 'cand.inp'), os.path.join(TMP, 'last.inp')
BLET = {'P': 'S', 'R': 'U', 'S': 'O', 'B': 'C', 'Q': 'T', 'K': 'L'}
ECHECS = os.environ.get('ECHECS', 'build/src/cli/echecs')
POPEYE = os.environ['POPEYE']
stip, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
extra = int(sys.argv[4]) if len(sys.argv) > 4 else 3
rng = random.Random(seed)
SQ = [f + r for r in '12345678' for f in 'abcdefgh']

def rand_pos():
    free = SQ[:]
    rng.shuffle(free)
    if CASTLING:
        home = ['e1', 'e8'] + [sq for sq in ('a1', 'h1', 'a8', 'h8') if rng.random() < 0.75]
        free = [sq for sq in free if sq not in home]
        w = [('K', 'e1')] + [('R', sq) for sq in home if sq[1] == '1' and sq != 'e1']
        b = [('K', 'e8')] + [('R', sq) for sq in home if sq[1] == '8' and sq != 'e8']
    else:
        w = [('K', free.pop())]; b = [('K', free.pop())]
    for side, most in ((w, extra), (b, max(1, extra // 2))):
        for _ in range(rng.randint(1, most)):
            p = rng.choice('QRRBBSSPPPP')
            sq = free.pop()
            if p == 'P' and sq[1] in '18': continue
            side.append((p, sq))
    if ALICE:
        w = [(p, sq, rng.random() < 0.4) for p, sq in w]
        b = [(p, sq, rng.random() < 0.4) for p, sq in b]
    else:
        w = [(p, sq, False) for p, sq in w]
        b = [(p, sq, False) for p, sq in b]
    return w, b

def fen(w, b, tomove):
    grid = {}
    for p, sq, onb in w: grid[sq] = BLET[p] if onb else p.replace('S', 'N')
    for p, sq, onb in b: grid[sq] = (BLET[p] if onb else p.replace('S', 'N')).lower()
    rows = []
    for r in '87654321':
        s, e = '', 0
        for f in 'abcdefgh':
            x = grid.get(f + r)
            if x: s += (str(e) if e else '') + x; e = 0
            else: e += 1
        rows.append(s + (str(e) if e else ''))
    # Popeye's castling rights: king and rook at home on board A
    cr = ''.join(c for c, k, r in (('K', 'K', 'R'), ('Q', 'K', 'R'), ('k', 'k', 'r'), ('q', 'k', 'r'))
                 if grid.get('e1' if c.isupper() else 'e8') == k and grid.get(('h' if c in 'Kk' else 'a') + ('1' if c.isupper() else '8')) == r)
    return '/'.join(rows) + f' {tomove} {cr or "-"} - 0 1'

def norm(m):
    # Popeye's sign of a goal of the last move (capture, arrival), after a space
    m = re.sub(r'\s+[xz]$', '', m.strip()).replace('*', 'x').replace(' ', '')
    m = re.sub(r'^\d+\.(\.\.)?', '', m)
    m = m.replace('e.p.', '')
    m = re.sub(r'[+#=!?]+$', '', m)
    return m

def popeye_paths(text):
    """Help lines: tuples of moves; battle: set of paths through the tree."""
    out = set()
    stack = []
    for line in text.split('\n'):
        if not re.match(r'^\s+\d+\.', line): continue
        if '?!?' in line:  # r#: the attacker bound to reach the goal in the diagram
            out.add(('bound', norm(line.replace('?!?', '').strip())))
            continue
        ind = len(line) - len(line.lstrip())
        body = line.strip()
        body = re.sub(r'\s*(threat:|zugzwang\.|!|\?!\?|\?)\s*$', '', body)
        body = body.replace('threat:', '').replace('zugzwang.', '').replace(' !', '').strip()
        # help line: several numbered moves on one line
        toks = re.findall(r'(\d+\.(?:\.\.)?)\s*([^ ]+(?: [+#=])?)(?:\s+(?!\d+\.)([^ ]+(?: [+#=])?))?', body)
        moves = []
        for num, a, b in toks:
            moves.append(norm(a))
            if b and b not in ('x', 'z'): moves.append(norm(b))  # not a goal's sign
        if HELP:
            out.add(tuple(moves))
        else:
            while stack and stack[-1][0] >= ind: stack.pop()
            path = tuple(x[1] for x in stack) + (moves[0],)
            stack.append((ind, moves[0]))
            out.add(path)
    return out

def echecs_paths(obj):
    out = set()
    # r#, ser-r#: the attacker bound to reach the goal at once (Popeye's "?!?")
    m = re.search(r'at once \(([^)]*)\)', obj.get('note', ''))
    if m:
        for x in m.group(1).split(', '): out.add(('bound', norm(x)))
    if HELP:
        for h in obj.get('help', []) + (obj.get('set_help', []) if SETPLAY else []):
            out.add(tuple(norm(m['move']) for m in h['moves']))
        return out
    def att(node, pre):
        p = pre + (norm(node['move']['text'] if isinstance(node['move'], dict) else node['move']),)
        out.add(p)
        for t in node.get('threats', []): att(t, p)
        for d in node.get('defences', []): dfn(d, p)
    def dfn(node, pre):
        p = pre + (norm(node['move']['text'] if isinstance(node['move'], dict) else node['move']),)
        out.add(p)
        for c in node.get('continuations', []): att(c, p)
    for k in obj.get('keys', []): att(k, ())
    pk = obj.get('post_key')
    if pk:  # POSTKEY=1: the play after the key, from its threats, variations and refutations
        for t in pk.get('threats', []): att(t, ())
        for d in pk.get('defences', []) + pk.get('refutations', []): dfn(d, ())
    return out

SSTIP = stip[6:] if stip.startswith('sstip:') else None
if SSTIP:  # the side named, Popeye's '-' (the other side first), the tree
    sside, stree = SSTIP.split(None, 1)
    stree = stree.replace(' ', '')
    SFIRST = ('b' if sside.lower().startswith('b') else 'w')
    if stree.startswith('-'):
        SFIRST = 'w' if SFIRST == 'b' else 'b'
        stree = stree[1:]
BASE = stip.removeprefix('exact-')  # exact play: the same kind of play
HELP = BASE.startswith(('h', 'reci-h', 'ser-', 'pser-', 'phser-'))  # one line per solution
if SSTIP:  # help, series and parry play (h, s and ?+? branches) one line per solution; battle play a tree
    HELP = bool(re.match(r'^(\d+:)?\d+[hs]', stree)) or '?+?' in stree
def inp_of(items):
    t = 'beginproblem\n'
    for i, (w, b) in enumerate(items):
        if i: t += 'next\n'
        def grp(side, col):
            a = ' '.join(p.lower() + s for p, s, onb in side if not onb)
            b = ' '.join(p.lower() + s for p, s, onb in side if onb)
            return (f'{col} {a}' if a else '') + (f' {col} AliceB {b}' if b else '')
        t += 'pieces ' + grp(w, 'white') + '\n       ' + grp(b, 'black') + (f'\nsstipulation {SSTIP}' if SSTIP else f'\nstipulation {stip}') + '\noption variation\n' + ('condition alice\n' if ALICE else '') + ('option postkeyplay\n' if POSTKEY else '') + ('option setplay\n' if SETPLAY else '') + (f'option threat {THREAT}\n' if THREAT else '') + (f'option {OPTIONS}\n' if OPTIONS else '')
    return t + 'endproblem\n'
cands = [rand_pos() for _ in range(count * int(os.environ.get('MULT', '60')))]
objs = []
for c in range(0, len(cands), 900):
    open(CAND, 'w').write(inp_of(cands[c:c + 900]))
    r = subprocess.run([ECHECS, 'solve', '-i', CAND, '--format', 'json', '--threads', '1', '--timeout', '5'] + (['--set-play'] if SETPLAY else []), capture_output=True, text=True)
    objs += [json.loads(l) for l in r.stdout.split('\n') if l.startswith('{')]
# echecs skips refused (illegal) problems: match by the problem's position
def key(w, b):
    return tuple(sorted(w)), tuple(sorted(b))
probs = []
byfen = {}
for o in objs: byfen.setdefault(o['fen'], o)
nosol = 0
for w, b in cands:
    helped = (BASE.startswith('h') and not BASE.startswith(('hs', 'hr'))) or BASE.startswith(('reci-h', 'ser-h', 'ser-reci-h', 'pser-h'))
    tomove = 'b' if (helped and not BASE.endswith('.5')) or (BASE.startswith(('hs', 'hr')) and BASE.endswith('.5')) else 'w'
    if POSTKEY: tomove = 'b'
    if SSTIP: tomove = SFIRST
    f = fen(w, b, tomove)
    o = byfen.pop(f, None)
    if o is None or not o.get('complete', True): continue  # refused, or cut by the timeout: not compared
    if o['solutions'] == 0:
        if nosol >= count // 4: continue
        nosol += 1
    probs.append((w, b, f, o))
    if len(probs) >= count: break
open(LAST, 'w').write(inp_of([(w, b) for w, b, f, o in probs]))
pr = subprocess.run([POPEYE, LAST], capture_output=True, text=True).stdout
chunks = re.split(r'solution finished\.[^\n]*', pr)
bad = same = sols = 0
for i, (w, b, f, obj) in enumerate(probs):
    pp = popeye_paths(chunks[i])
    ep = echecs_paths(obj)
    sols += obj['solutions']
    if pp == ep: same += 1
    else:
        bad += 1
        if bad <= 5:
            print('DIFF', f, stip, '\n popeye-only', sorted(pp - ep)[:6], '\n echecs-only', sorted(ep - pp)[:6])
print(f'{stip}: {same} same, {bad} different, {sols} echecs solutions, {len(probs)} problems ({nosol} without a solution)')
