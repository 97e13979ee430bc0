// The lobby's "Your turn" panel: the games waiting for this player's move
// (your-turn.ts keeps the list the server pushes), each a link to its game.

import { clear, el } from '../dom.js';
import { onLangChange, t } from '../i18n.js';
import { TurnGame, onYourTurn, yourTurn } from '../your-turn.js';
import { variantKey } from '../games.js';

function timeLeft(g: TurnGame, now: number): string {
  const ms = g.remaining_ms ?? (g.deadline !== null ? g.deadline - now : null);
  if (ms === null) return '∞';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function yourTurnPanel(): { element: HTMLElement; destroy: () => void } {
  const list = el('div', { class: 'turn-list' });
  const title = el('h2', {});
  const element = el('section', { class: 'panel your-turn', 'data-panel': 'your-turn' }, title, list);
  const render = () => {
    const games = yourTurn();
    title.textContent = games.length ? `${t('turn.title')} (${games.length})` : t('turn.title');
    clear(list);
    if (!games.length) list.appendChild(el('p', { class: 'empty' }, t('turn.none')));
    const now = Date.now();
    for (const g of games)
      list.appendChild(
        el(
          'a',
          { class: 'turn-game', href: `/game/${encodeURIComponent(g.game)}`, 'data-link': '', 'data-game': g.game },
          el('span', { class: 'variant' }, t(variantKey(g.variant))),
          el('span', { class: 'who' }, t('turn.against', { name: g.opponent })),
          el('span', { class: 'left' }, timeLeft(g, now)),
        ),
      );
  };
  render();
  const offs = [onYourTurn(render), onLangChange(render)];
  return { element, destroy: () => offs.forEach(f => f()) };
}
