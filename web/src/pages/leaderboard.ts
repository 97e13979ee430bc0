// Leaderboards, /leaderboard?variant=&speed=: the best established players
// (not provisional) who played a rated game of that category lately.

import type { Variant } from '../fen.js';
import { ratedVariants, SPEEDS, Speed, accountApi } from '../account-api.js';
import { el } from '../dom.js';
import { errorText } from '../errors.js';
import { Key, t } from '../i18n.js';
import { variantKey } from '../games.js';

export function leaderboardPage(root: HTMLElement, query: URLSearchParams): () => void {
  let alive = true;
  const rated = ratedVariants();
  const asked = query.get('variant') ?? '';
  const variant: Variant = rated.includes(asked) ? asked : rated[0];
  const speed = (SPEEDS as readonly string[]).includes(query.get('speed') ?? '') ? (query.get('speed') as Speed) : 'blitz';
  const tabs = (label: string, items: readonly string[], current: string, keyOf: (s: string) => Key, go: (s: string) => string) =>
    el(
      'nav',
      { class: 'board-tabs', 'aria-label': label },
      ...items.map(s => {
        const a = el('a', { href: go(s), 'data-link': '', class: 'btn small' }, t(keyOf(s)));
        if (s === current) a.setAttribute('aria-current', 'page');
        return a;
      }),
    );
  const body = el('div', { class: 'leaderboard-body' }, el('p', { class: 'muted' }, '…'));
  root.appendChild(
    el(
      'section',
      { class: 'panel leaderboard', 'aria-labelledby': 'leaderboard-title' },
      el('h1', { id: 'leaderboard-title' }, t('leaderboard.title')),
      tabs(t('lobby.variant'), rated, variant, variantKey, v => `/leaderboard?variant=${v}&speed=${speed}`),
      tabs(t('lobby.timeControl'), SPEEDS, speed, s => `speed.${s}` as Key, s => `/leaderboard?variant=${variant}&speed=${s}`),
      body,
      el('p', { class: 'hint' }, t('leaderboard.rule')),
    ),
  );
  accountApi.leaderboard(variant, speed).then(
    r => {
      if (!alive) return;
      if (r.players.length === 0) {
        body.replaceChildren(el('p', { class: 'empty' }, t('leaderboard.empty')));
        return;
      }
      const rows = r.players.map(p =>
        el('tr', {}, el('td', {}, String(p.rank)), el('td', {}, el('a', { href: `/@/${encodeURIComponent(p.username)}`, 'data-link': '' }, p.username)), el('td', {}, String(p.rating)), el('td', { class: 'muted' }, String(p.games))),
      );
      body.replaceChildren(
        el(
          'table',
          { class: 'ratings-table' },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, t('leaderboard.player')), el('th', { scope: 'col' }, t('leaderboard.rating')), el('th', { scope: 'col' }, t('leaderboard.games')))),
          el('tbody', {}, ...rows),
        ),
      );
    },
    e => alive && body.replaceChildren(el('p', { class: 'form-msg' }, errorText(e))),
  );
  return () => {
    alive = false;
  };
}
