// What a game page adds for accounts: each player's rating in the game's
// category next to their name ("1500?" while provisional), a "rated" mark,
// and at the end of a rated game each side's rating change ("+12", "−8"),
// which the server sends in a `state` once the result is recorded. An
// account's name links to its profile.

import type { GameState } from '../api.js';
import { RatedSeat, diffText, ratingText } from '../account-api.js';
import { el } from '../dom.js';
import type { Color } from '../fen.js';
import { t } from '../i18n.js';

type RatedState = GameState & {
  rated?: boolean;
  rating_diff?: { white: number | null; black: number | null } | null;
  players: { white: RatedSeat; black: RatedSeat };
};

/** Adds the rating (and its change at the end) to a player box drawn by renderPlayer. */
export function decoratePlayer(box: HTMLElement, state: GameState, color: Color): void {
  const st = state as RatedState;
  const p = st.players[color];
  const sub = box.querySelector('.name-box');
  const name = sub?.querySelector('span.name');
  if (name && p.account && !p.computer)
    name.replaceWith(el('a', { class: 'name account', href: `/@/${encodeURIComponent(p.name)}`, 'data-link': '' }, p.name));
  if (!sub || !p.rating) return;
  sub.querySelector('.name')?.after(el('span', { class: `rating${p.provisional ? ' provisional' : ''}`, 'data-color': color }, ratingText({ rating: p.rating, provisional: p.provisional })));
  const d = st.rating_diff?.[color];
  if (d !== null && d !== undefined) sub.append(ratingDiff(d, color));
}

function ratingDiff(d: number, color: Color): HTMLElement {
  return el('span', { class: `diff ${d > 0 ? 'up' : d < 0 ? 'down' : ''}`, 'data-rating-diff': color }, diffText(d));
}

/** The result banner's line of rating changes (rated games, once recorded). */
export function decorateResult(banner: HTMLElement, state: GameState): void {
  const st = state as RatedState;
  if (st.status !== 'over') return;
  if (st.rated) banner.append(el('div', { class: 'result-rated' }, t('game.rated')));
  const diff = st.rating_diff;
  if (!diff) return;
  const line = el('div', { class: 'rating-changes' });
  for (const c of ['white', 'black'] as Color[]) {
    const d = diff[c];
    if (d === null || d === undefined) continue;
    line.append(el('span', { class: 'rating-change' }, `${st.players[c].name} `, ratingDiff(d, c)));
  }
  banner.append(line);
}
