// What the game page adds for a game paired by an arena (`state.tournament`):
// the way back to the tournament, the Berserk button (halve one's own clock
// and drop the increment before one's first move, for one more point on a
// win) and, beside each player who did, the berserk mark.

import type { GameState, PlayerInfo } from '../api.js';
import { clear, el, svgIcon } from '../dom.js';
import type { Color } from '../fen.js';
import { t } from '../i18n.js';

/** The fields of a `state` this file reads, which GameState (api.ts) does not name. */
type TournamentState = GameState & {
  tournament?: string | null;
  players: { white: PlayerInfo & { berserk?: boolean }; black: PlayerInfo & { berserk?: boolean } };
};

/** What mayBerserk reads of a state. */
export interface BerserkView {
  tournament?: string | null;
  status: 'live' | 'over';
  ply: number;
  time: { kind: string };
  players: Record<Color, { berserk?: boolean }>;
}

/** A lightning bolt (drawn for this page): the player went berserk. */
const BOLT = 'M13.5 2 4.5 13.5h6L9.5 22l9-11.5h-6z';

/** A cup (drawn for this page): the tournament. */
const CUP =
  'M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3zM6 7v1a2 2 0 0 0 1 1.7V7zm11 0v2.7A2 2 0 0 0 18 8V7z';

/** The tournament that paired this game, if any. */
export function tournamentOf(st: GameState): string | null {
  return (st as TournamentState).tournament ?? null;
}

/** Whether this side went berserk. */
export function isBerserk(st: GameState, color: Color): boolean {
  return (st as TournamentState).players[color].berserk === true;
}

/**
 * May the player of `me` still go berserk? As the server allows it: a live
 * tournament game on a clock, not yet done, and before the player's own
 * first move (White: no move yet; Black: at most White's first move made).
 */
export function mayBerserk(state: BerserkView | GameState, me: Color | null): boolean {
  const st = state as BerserkView;
  if (!me || !st.tournament || st.status !== 'live' || st.time.kind !== 'realtime') return false;
  if (st.players[me].berserk) return false;
  return st.ply <= (me === 'white' ? 0 : 1);
}

/** The Berserk button (its tooltip says what it costs and what it brings). */
export function berserkButton(onClick: () => void): HTMLButtonElement {
  const hint = t('game.berserkHint');
  const b = el('button', { type: 'button', class: 'btn berserk', 'data-action': 'berserk', title: hint }, svgIcon(BOLT), el('span', {}, t('game.berserk')));
  // the tooltip is for the mouse: the same words read out to a screen reader
  b.append(el('span', { class: 'sr-only' }, ` (${hint})`));
  b.addEventListener('click', onClick);
  return b;
}

/** Adds the berserk mark to a player box drawn by renderPlayer, beside the clock, if that side went berserk. */
export function decorateBerserk(box: HTMLElement, st: GameState, color: Color): void {
  if (!isBerserk(st, color)) return;
  const text = t('game.berserked');
  box
    .querySelector('.player-name')
    ?.append(el('span', { class: 'berserk-mark', 'data-berserk': color, title: text }, svgIcon(BOLT), el('span', { class: 'sr-only' }, text)));
}

/** The link back to the tournament's page (shown for its games only). */
export function renderTournamentLink(box: HTMLElement, st: GameState): void {
  const id = tournamentOf(st);
  box.hidden = !id;
  const href = id ? `/tournament/${encodeURIComponent(id)}` : '';
  const a = box.querySelector('a');
  if (!id) clear(box);
  else if (a?.getAttribute('href') !== href) {
    clear(box);
    box.append(el('a', { href, 'data-link': '', class: 'btn small', 'data-action': 'back-to-tournament' }, svgIcon(CUP), el('span', {}, t('game.backToTournament'))));
  }
}
