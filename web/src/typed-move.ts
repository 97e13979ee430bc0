// A move typed on the keyboard, on the game, analysis and puzzle pages: the
// box, and the move it names among the server's legal moves (SAN in the
// page's letters, or coordinates; in Avalanche, among those of the pending
// choice already made), played on the board as if by hand.

import type { BoardView } from './board.js';
import { el } from './dom.js';
import { lang, t } from './i18n.js';
import { parseMoves } from './moves.js';
import { matchTyped } from './notation.js';

/** The box a move is typed into. */
export function moveInputBox(attrs: Record<string, string> = {}): HTMLInputElement {
  return el('input', {
    class: 'san-input',
    type: 'text',
    placeholder: t('game.moveInput'),
    'aria-label': t('game.moveInputLabel'),
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    ...attrs,
  });
}

/**
 * Plays on `board` the move `text` names among `legal` (their SAN in `sans`,
 * same order); null when played (or its Avalanche first part, the push then
 * chosen on the board), else the key of what is wrong (no such move, or several).
 */
export function playTyped(board: BoardView, text: string, legal: readonly string[], sans: readonly string[] | undefined): 'game.badMove' | 'game.ambiguousMove' | null {
  const all = parseMoves(legal);
  const choice = board.stageChoice();
  const idx = all.map((_, i) => i).filter(i => choice === undefined || all[i].choice === choice);
  const r = matchTyped(
    text,
    idx.map(i => all[i]),
    idx.map(i => sans?.[i] ?? ''),
    lang(),
  );
  if (r.kind === 'none') return 'game.badMove';
  if (r.kind === 'ambiguous') return 'game.ambiguousMove';
  if (r.kind === 'first') board.playFirstPart(r.moves);
  else board.playKeyboard(r.move);
  return null;
}
