// Rules pages of the three games, with diagrams drawn by chessground.

import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { BoardIndex, Variant, parseFen } from '../fen.js';
import { lang, t } from '../i18n.js';
import { RULES } from '../rules-content.js';

const VARIANTS: Variant[] = ['chess', 'alice', 'avalanche'];

export function rulesPage(root: HTMLElement, v: string): () => void {
  const variant: Variant = (VARIANTS as string[]).includes(v) ? (v as Variant) : 'chess';
  const page = RULES[variant][lang()];
  const boards: BoardView[] = [];
  const art = el('article', { class: 'rules panel', 'data-variant': variant });
  // attached first: chessground measures the boards when they are created
  clear(root);
  root.appendChild(art);
  const tabs = el('nav', { class: 'rules-tabs' });
  for (const x of VARIANTS)
    tabs.appendChild(el('a', { href: `/rules/${x}`, 'data-link': '', class: x === variant ? 'active' : '' }, t(`variant.${x}`)));
  art.append(tabs, el('h1', {}, `${t('rules.title')} · ${page.title}`), el('p', { class: 'intro' }, page.intro));
  let n = 0;
  for (const b of page.blocks) {
    if ('h' in b) art.appendChild(el('h2', {}, b.h));
    else if ('p' in b) art.appendChild(el('p', {}, b.p));
    else if ('ul' in b) art.appendChild(el('ul', {}, ...b.ul.map(li => el('li', {}, li))));
    else {
      n++;
      const fig = el('figure', { class: `diagram variant-${variant}` });
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
  return () => boards.forEach(b => b.destroy());
}
