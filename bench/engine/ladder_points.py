#!/usr/bin/env python3
"""Places a game's computer levels on the line of settings (strength.cpp) so
that neighbouring levels are equally far apart in self-play.

    python3 bench/engine/ladder_points.py GAME STEPS [TOP_POINT ...]

reads the calibration matches docs/strength/ladder_games/calibration/GAME_*.log
(each between two points of the line, chosen by UCI_Elo on the build before
the per-game ladders, whose rating columns are RATINGS below), fits the
self-play Elo E(x) along the line by weighted least squares (each match
weighted by its error, a little smoothness between the measured points), and
prints STEPS + 1 points from 1.0 to 9.0 equally spaced in E, then the
TOP_POINTs given (the points between 9.0 and full strength, where the last
step is timed and was placed by hand: docs/STRENGTH.md "Each game's ladder").
"""
import bisect
import glob
import math
import re
import sys

# The rating columns of the previous build (ccc775b), levels 1-10 = points
# 1.0-10.0 of the line: UCI_Elo chose points between them linearly.
RATINGS = {
    'chess': [770, 960, 1070, 1230, 1410, 1540, 1680, 1810, 1980, 2230],
    'alice': [870, 1040, 1210, 1360, 1470, 1560, 1640, 1780, 1970, 2030],
    'avalanche': [890, 1060, 1190, 1250, 1350, 1420, 1520, 1640, 1760, 1770],
}


def point_of(game, elo):
    if elo is None:
        return 10.0  # no limit: full strength
    r = RATINGS[game]
    if elo <= r[0]:
        return 1.0
    for i in range(9):
        if elo < r[i + 1]:
            return 1 + i + (elo - r[i]) / (r[i + 1] - r[i])
    return 10.0


def elo_difference(w, l, d):
    """The first player's logistic Elo difference and its standard error."""
    n = w + l + d
    s = min(max((w + d / 2) / n, 0.5 / n), 1 - 0.5 / n)
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n / n
    return -400 * math.log10(1 / s - 1), 400 / math.log(10) / (s * (1 - s)) * math.sqrt(max(var, 1e-6))


def matches(game, folder):
    out = []
    for f in sorted(glob.glob(f'{folder}/{game}_*.log')):
        text = open(f).read()
        engines = re.findall(r'--engine cmd=\S+ name=\S+((?: option\.UCI_LimitStrength=true option\.UCI_Elo=\d+)?)',
                             text.splitlines()[0])
        score = re.search(r'^Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)', text, re.M)
        if len(engines) != 2 or not score:
            continue  # a match stopped before its end
        a, b = (point_of(game, int(re.search(r'\d+$', e).group()) if e else None) for e in engines)
        elo, se = elo_difference(*map(int, score.groups()))
        out.append((a, b, -elo, se))  # E(b) - E(a)
    return out


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(obs, smooth=3e-5):
    """E at every measured point (E(1.0) = 0), from the matches below full strength."""
    obs = [o for o in obs if o[1] < 10.0]
    knots = sorted({1.0} | {o[0] for o in obs} | {o[1] for o in obs})
    at = {x: i for i, x in enumerate(knots)}
    n = len(knots) - 1
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n

    def add(coef, value, weight):
        for i, ci in coef.items():
            if i == 0:
                continue
            b[i - 1] += weight * ci * value
            for j, cj in coef.items():
                if j:
                    a[i - 1][j - 1] += weight * ci * cj

    for x, y, d, se in obs:
        add({at[y]: 1.0, at[x]: -1.0}, d, 1 / se ** 2)
    for i in range(1, len(knots) - 1):  # the slope changes little from one segment to the next
        h1, h2 = knots[i] - knots[i - 1], knots[i + 1] - knots[i]
        add({i + 1: 1 / h2, i: -1 / h2 - 1 / h1, i - 1: 1 / h1}, 0.0, smooth * (h1 + h2) / 2)
    return knots, [0.0] + solve(a, b)


def main():
    game, steps, top = sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3:]]
    knots, e = fit(matches(game, 'docs/strength/ladder_games/calibration'))
    if knots[-1] < 9.0:  # E(9.0) by the last segment's slope
        slope = (e[-1] - e[-2]) / (knots[-1] - knots[-2])
        e.append(e[-1] + (9.0 - knots[-1]) * slope)
        knots.append(9.0)
    e9 = e[bisect.bisect_left(knots, 9.0)]
    points = []
    for j in range(steps + 1):
        t = j * e9 / steps
        i = max(0, min(len(e) - 2, bisect.bisect_right(e, t) - 1))
        points.append(round(knots[i] + (t - e[i]) / (e[i + 1] - e[i]) * (knots[i + 1] - knots[i]), 2))
    print(f'{game}: E(9.0) = {e9:.0f} self-play Elo above point 1.0, {e9 / steps:.0f} a step')
    print(points + top)


if __name__ == '__main__':
    main()
