// The parts of /tournament/<id> that are a Swiss's own (pages/tournament.ts
// draws the rest): the standings with points, Buchholz Cut-1, Buchholz and
// Sonneborn-Berger and a compact row of each round, the current round's
// games and bye, and the player's own pairing ("Round 3: White against bob").

import type { TournamentMe } from '../api.js';
import { ratingText } from '../account-api.js';
import { el } from '../dom.js';
import { t } from '../i18n.js';
import type { WireSwissRound, WireSwissStanding, WireSwissTournament } from '../protocol.js';
import { roundMark, roundText } from './tournament-parts.js';

/** Half points as the eye reads them: 2.5 → "2½", 0.5 → "½". */
export function points(x: number): string {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

function roundCell(r: WireSwissRound, round: number): HTMLElement {
  const mark = el('span', { class: `rd k-${r.kind}${r.color ? ` c-${r.color}` : ''}`, title: roundText(r, round), 'aria-hidden': 'true' }, roundMark(r));
  // for the pointer only: out of the tab order and hidden from screen readers, which read the row's sentence instead
  return r.game ? el('a', { href: `/game/${encodeURIComponent(r.game)}`, 'data-link': '', tabindex: '-1', 'aria-hidden': 'true' }, mark) : mark;
}

function row(s: WireSwissStanding, mine: boolean): HTMLElement {
  const rounds = el('span', { class: 'rounds' }, el('span', { class: 'sr-only' }, s.rounds.map((r, i) => roundText(r, i + 1)).join('. ')));
  s.rounds.forEach((r, i) => rounds.appendChild(roundCell(r, i + 1)));
  return el(
    'tr',
    { 'data-standing': s.name, 'data-points': String(s.points), class: mine ? 'mine' : undefined },
    el('td', { class: 'rank' }, String(s.rank)),
    el(
      'td',
      { class: 'who' },
      el('a', { href: `/@/${encodeURIComponent(s.name)}`, 'data-link': '', class: 'name' }, s.name),
      el('span', { class: 'rating muted' }, ratingText(s)),
      s.withdrawn ? el('span', { class: 'badge paused', 'data-role': 'withdrawn' }, t('tournament.withdrawn')) : null,
    ),
    el('td', { class: 'score' }, el('strong', {}, points(s.points))),
    el('td', { class: 'tb' }, String(s.buchholz_cut1)),
    el('td', { class: 'tb' }, String(s.buchholz)),
    el('td', { class: 'tb' }, String(s.sonneborn_berger)),
    el('td', { class: 'points' }, rounds),
  );
}

/** The standings table (the caller shows "nobody yet" when empty). */
export function swissTable(v: WireSwissTournament, mine: string | null): HTMLElement {
  const th = (text: string, title?: string) => el('th', { scope: 'col', title }, text);
  return el(
    'table',
    { class: 'ratings-table standings swiss' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        th('#'),
        th(t('leaderboard.player')),
        th(t('tournament.pointsShort'), t('tournament.score')),
        th(t('tournament.cut1Short'), t('tournament.cut1')),
        th(t('tournament.buchholzShort'), t('tournament.buchholz')),
        th(t('tournament.sbShort'), t('tournament.sb')),
        th(t('tournament.roundsHead')),
      ),
    ),
    el('tbody', {}, ...v.standings.map(s => row(s, s.name === mine))),
  );
}

/** The current round's games in progress, board first, and its bye. */
export function swissGames(v: WireSwissTournament): HTMLElement[] {
  const items = v.games.map(g =>
    el(
      'li',
      {},
      el('a', { href: `/game/${encodeURIComponent(g.id)}`, 'data-link': '', 'data-game': g.id }, `${g.board}. ${t('tournament.versus', { white: g.white, black: g.black })}`),
    ),
  );
  if (v.bye) items.push(el('li', { 'data-role': 'bye' }, t('tournament.byeOf', { name: v.bye })));
  if (!items.length) items.push(el('li', { class: 'empty' }, t('tournament.noGames')));
  return items;
}

/** The player's own line: their pairing of this round (a link to the game), or what they wait for. */
export function swissMine(v: WireSwissTournament, me: TournamentMe): HTMLElement {
  if (!me.joined) return el('p', {});
  if (me.paused) return el('p', { class: 'tournament-you' }, t('tournament.withdrawnNote'));
  if (v.status === 'created') return el('p', { class: 'tournament-you', 'data-role': 'waiting' }, t('tournament.swissWaitingStart'));
  const p = me.pairing;
  if (!p) return el('p', { class: 'tournament-you', 'data-role': 'waiting' }, t('tournament.swissWaitingRound'));
  const text = roundText(p, p.round);
  if (p.kind === 'live' && p.game)
    return el('p', { class: 'tournament-you', 'data-role': 'my-pairing' }, el('a', { href: `/game/${encodeURIComponent(p.game)}`, 'data-link': '', class: 'btn primary', 'data-role': 'my-game' }, text));
  return el('p', { class: 'tournament-you', 'data-role': 'my-pairing' }, text);
}
