// The challenge page's word on a seek created from a set-up position: that
// the game starts there, a small board of it (two for Alice) and its FEN,
// so that whoever opens the link knows what they accept.

import type { Seek } from '../api.js';
import { BoardView } from '../board.js';
import { el } from '../dom.js';
import type { Color } from '../fen.js';
import { t } from '../i18n.js';
import { twoBoards } from '../games.js';

export interface ChallengePosition {
  destroy(): void;
}

/** Appends it to `host` (nothing for a seek from the usual initial position). */
export function challengePosition(host: HTMLElement, seek: Seek): ChallengePosition | null {
  if (!seek.fen) return null;
  // seen from the side the reader would play (the creator's colour, or the other one)
  const creator: Color = seek.color === 'black' ? 'black' : 'white';
  const orientation: Color = seek.mine ? creator : creator === 'white' ? 'black' : 'white';
  const mini = el('div', { class: 'mini' });
  const fen = el('input', { type: 'text', readonly: '', value: seek.fen, class: 'challenge-fen', 'aria-label': 'FEN' });
  const node = el(
    'div',
    { class: `challenge-position variant-${seek.variant}`, 'data-fen': seek.fen },
    el('p', {}, t('lobby.fromPosition')),
    mini,
    fen,
  );
  host.appendChild(node); // before the board is drawn: chessground measures its place
  const view = new BoardView(mini, seek.variant, { orientation, viewOnly: true, coordinates: false, labels: twoBoards(seek.variant) });
  view.update({ fen: seek.fen, legal: [], canMove: false });
  return { destroy: () => view.destroy() };
}
