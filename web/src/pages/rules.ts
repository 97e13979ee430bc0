// Rules pages of the three games, with diagrams drawn by chessground; the same
// text opens in a dialog over a game, so that reading it never leaves the game.

import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { BoardIndex, Variant, parseFen } from '../fen.js';
import { lang, t } from '../i18n.js';
import { RULES } from '../rules-content.js';
import { games, variantKey } from '../games.js';


/** Renders the rules of `variant` into `art` (already in the document: chessground measures its boards). */
function renderRules(art: HTMLElement, variant: Variant, headingLevel: 'h1' | 'h2'): BoardView[] {
  const page = RULES[variant][lang()];
  const boards: BoardView[] = [];
  art.append(el(headingLevel, {}, `${t('rules.title')} · ${page.title}`), el('p', { class: 'intro' }, page.intro));
  let n = 0;
  for (const b of page.blocks) {
    if ('h' in b) art.appendChild(el(headingLevel === 'h1' ? 'h2' : 'h3', {}, b.h));
    else if ('p' in b) art.appendChild(el('p', {}, b.p));
    else if ('ul' in b) art.appendChild(el('ul', {}, ...b.ul.map(li => el('li', {}, li))));
    else {
      n++;
      const fig = el('figure', { class: `diagram variant-${variant}`, 'data-fen': b.diagram.fen });
      const host = el('div', { class: 'diagram-boards' });
      fig.appendChild(host);
      fig.appendChild(el('figcaption', {}, `${t('rules.diagram')} ${n}. ${b.diagram.caption}`));
      art.appendChild(fig);
      const view = new BoardView(host, variant, { orientation: 'white', viewOnly: true, coordinates: true });
      view.update({ fen: b.diagram.fen, legal: [], canMove: false, lastMove: b.diagram.lastMove, check: b.diagram.check });
      if (b.diagram.arrows) {
        const pos = parseFen(b.diagram.fen);
        // an arrow is drawn on the board of the piece at its origin (Alice)
        const byBoard = new Map<BoardIndex, typeof b.diagram.arrows>();
        for (const a of b.diagram.arrows) {
          const bi = (pos.pieces.get(a.orig)?.board ?? 0) as BoardIndex;
          byBoard.set(bi, [...(byBoard.get(bi) ?? []), a]);
        }
        for (const [bi, arrows] of byBoard) view.setArrows(arrows, bi);
      }
      boards.push(view);
    }
  }
  return boards;
}

export function rulesPage(root: HTMLElement, v: string): () => void {
  // the games whose rules the client has written out (rules-content.ts)
  const described = games().filter(g => RULES[g.name]).map(g => g.name);
  const variant: Variant = described.includes(v) ? v : described[0];
  const art = el('article', { class: 'rules panel', 'data-variant': variant });
  clear(root);
  root.appendChild(art);
  const tabs = el('nav', { class: 'rules-tabs', 'aria-label': t('nav.rules') });
  for (const x of described)
    tabs.appendChild(
      el('a', { href: `/rules/${x}`, 'data-link': '', class: x === variant ? 'active' : '', 'aria-current': x === variant ? 'page' : undefined }, t(variantKey(x))),
    );
  art.append(tabs);
  const boards = renderRules(art, variant, 'h1');
  return () => boards.forEach(b => b.destroy());
}

/** The rules in a modal dialog over the current page (a live game goes on under it). */
export function openRulesDialog(variant: Variant): void {
  document.querySelector('dialog.rules-dialog')?.remove();
  const dialog = el('dialog', { class: 'rules-dialog', 'aria-label': `${t('rules.title')} · ${t(variantKey(variant))}` });
  const close = el('button', { type: 'button', class: 'btn dialog-close', 'data-action': 'close-rules', 'aria-label': t('rules.close') }, '×');
  const art = el('article', { class: 'rules', 'data-variant': variant });
  dialog.append(close, art);
  document.body.appendChild(dialog);
  dialog.showModal();
  const boards = renderRules(art, variant, 'h2');
  const done = () => {
    boards.forEach(b => b.destroy());
    dialog.remove();
  };
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', done);
  // a tap outside the dialog's box closes it
  dialog.addEventListener('click', e => {
    if (e.target === dialog) dialog.close();
  });
}
