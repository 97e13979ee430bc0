// The promotion dialog over a board: Q R B N for an own promotion or for the
// pending choice of an Avalanche pawn pushed to its last rank.

import type { Color, Role } from './fen.js';
import { el } from './dom.js';
import { t } from './i18n.js';

const ROLE_OF: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

export function pieceName(role: Role): string {
  return t(`piece.${role}` as Parameters<typeof t>[0]);
}

/** Opens the dialog in `host` (a board's wrapper, so it covers that board); returns its element. */
export function promotionDialog(
  host: HTMLElement,
  color: Color,
  square: string,
  letters: string[],
  title: string,
  done: (letter: string) => void,
  cancel: (() => void) | undefined,
): HTMLElement {
  const ov = el('div', { class: 'promotion-overlay', role: 'dialog', 'aria-label': title, 'data-square': square });
  const box = el('div', { class: 'promotion-box cg-wrap' });
  box.appendChild(el('div', { class: 'promotion-title' }, title));
  const row = el('div', { class: 'promotion-choices' });
  for (const l of letters) {
    const role = ROLE_OF[l];
    const b = el('button', {
      class: 'promotion-choice',
      type: 'button',
      'data-role': role,
      title: pieceName(role),
      'aria-label': pieceName(role),
    });
    b.appendChild(el('piece', { class: `${color} ${role}` }));
    b.addEventListener('click', () => done(l));
    row.appendChild(b);
  }
  box.appendChild(row);
  if (cancel) {
    const c = el('button', { class: 'btn small', type: 'button' }, t('game.cancel'));
    c.addEventListener('click', cancel);
    box.appendChild(c);
  }
  ov.appendChild(box);
  host.appendChild(ov);
  return ov;
}
