// A player's profile, /@/<name>: ratings per game x speed (provisional ones
// marked "?"), the puzzle rating per game, a rating graph per category
// played, and the finished games,
// newest first, each linking to its page; the tournaments joined
// (profile-tournaments.ts). On one's own profile, the "your turn" list too
// (the account's games from every browser).

import type { Variant } from '../fen.js';
import { ApiError } from '../api.js';
import { Profile, ProfileGame, SPEEDS, Speed, accountApi, currentUser, diffText, isOwnProfile, onUserChange, ratingText } from '../account-api.js';
import { el } from '../dom.js';
import { errorText } from '../errors.js';
import { Key, lang, t, tn } from '../i18n.js';
import { ratingChart } from '../rating-chart.js';
import { yourTurnPanel } from './your-turn-panel.js';
import { profileTournaments } from './profile-tournaments.js';
import { ratedVariants } from '../account-api.js';
import { games, variantKey } from '../games.js';

/** The slot of the "your turn" panel: filled while the profile is the user's own. */
function ownTurns(name: string): { element: HTMLElement; destroy: () => void } {
  const element = el('div', { class: 'profile-turns' });
  let panel: { element: HTMLElement; destroy: () => void } | null = null;
  const update = () => {
    const own = isOwnProfile(name, currentUser());
    if (own && !panel) {
      panel = yourTurnPanel();
      element.appendChild(panel.element);
    } else if (!own && panel) {
      panel.destroy();
      panel.element.remove();
      panel = null;
    }
  };
  update();
  const off = onUserChange(update);
  return {
    element,
    destroy: () => {
      off();
      panel?.destroy();
    },
  };
}

function date(ms: number): string {
  return new Date(ms).toLocaleDateString(lang(), { year: 'numeric', month: 'short', day: 'numeric' });
}

function ratingsTable(p: Profile): HTMLElement {
  const played = (v: Variant, s: Speed) => (p.ratings[v]?.[s]?.games ?? 0) > 0;
  const variants = ratedVariants().filter(v => SPEEDS.some(s => played(v, s)));
  if (variants.length === 0) return el('p', { class: 'empty' }, t('profile.noRated'));
  // only the speeds played: five columns do not fit a phone
  const speeds = SPEEDS.filter(s => variants.some(v => played(v, s)));
  const head = el('tr', {}, el('th', { scope: 'col' }, t('lobby.variant')), ...speeds.map(s => el('th', { scope: 'col' }, t(`speed.${s}` as Key))));
  const rows = variants.map(v =>
    el(
      'tr',
      { 'data-variant': v },
      el('th', { scope: 'row' }, t(variantKey(v))),
      ...speeds.map(s => {
        const r = p.ratings[v]?.[s];
        if (!r || r.games === 0) return el('td', { class: 'muted' }, '—');
        const title = r.provisional ? t('profile.provisional') : t('profile.deviation', { rd: r.rd });
        return el('td', { 'data-speed': s, title }, el('span', { class: r.provisional ? 'rating provisional' : 'rating' }, ratingText(r)), el('span', { class: 'games-count' }, tn('profile.games', r.games)));
      }),
    ),
  );
  return el('div', { class: 'table-scroll' }, el('table', { class: 'ratings-table' }, el('thead', {}, head), el('tbody', {}, ...rows)));
}

/** The trainer's rating in each game where the player has rated a puzzle. */
function puzzleRatingsTable(p: Profile): HTMLElement {
  const played = games().filter(g => (p.puzzle_ratings?.[g.name]?.puzzles ?? 0) > 0);
  if (played.length === 0) return el('p', { class: 'empty' }, t('profile.noPuzzles'));
  const rows = played.map(g => {
    const r = p.puzzle_ratings![g.name]!;
    const title = r.provisional ? t('profile.provisional') : t('profile.deviation', { rd: r.rd });
    return el(
      'tr',
      { 'data-variant': g.name },
      el('th', { scope: 'row' }, t(variantKey(g.name))),
      el('td', { title }, el('span', { class: r.provisional ? 'rating provisional' : 'rating' }, ratingText(r)), el('span', { class: 'games-count' }, tn('profile.puzzles', r.puzzles))),
    );
  });
  return el('div', { class: 'table-scroll' }, el('table', { class: 'ratings-table puzzle-ratings' }, el('tbody', {}, ...rows)));
}

function charts(p: Profile): HTMLElement | null {
  const figures: HTMLElement[] = [];
  for (const v of ratedVariants())
    for (const s of SPEEDS) {
      const points = p.history[v]?.[s] ?? [];
      if (points.length === 0) continue;
      const label = t('profile.chartLabel', { variant: t(variantKey(v)), speed: t(`speed.${s}` as Key) });
      figures.push(el('figure', { class: 'rating-graph', 'data-variant': v, 'data-speed': s }, ratingChart(points, label), el('figcaption', {}, label)));
    }
  return figures.length ? el('section', { class: 'panel', 'aria-labelledby': 'graphs-title' }, el('h2', { id: 'graphs-title' }, t('profile.graphs')), el('div', { class: 'rating-graphs' }, ...figures)) : null;
}

function gameRow(g: ProfileGame): HTMLElement {
  const result = el('span', { class: `result result-${g.result}` }, t(`profile.${g.result}` as Key));
  const speed = g.speed === 'unlimited' ? t('lobby.unlimited') : t(`speed.${g.speed}` as Key);
  const diff = g.rated && g.rating_diff !== undefined ? el('span', { class: `diff ${g.rating_diff > 0 ? 'up' : g.rating_diff < 0 ? 'down' : ''}` }, diffText(g.rating_diff)) : null;
  const opponent = g.opponent_has_account && g.opponent !== 'deleted' ? el('a', { href: `/@/${encodeURIComponent(g.opponent)}`, 'data-link': '' }, g.opponent) : el('span', {}, g.opponent === 'deleted' ? t('profile.deleted') : g.opponent);
  return el(
    'li',
    { class: 'profile-game', 'data-game': g.id },
    el('a', { href: `/game/${encodeURIComponent(g.id)}`, 'data-link': '', class: 'profile-game-link' }, `${t(variantKey(g.variant))} · ${speed} · ${g.rated ? t('profile.rated') : t('profile.casual')}`),
    el('span', {}, t('profile.versus'), ' ', opponent),
    result,
    diff,
    el('span', { class: 'muted' }, date(g.ended_at)),
  );
}

export function profilePage(root: HTMLElement, name: string): () => void {
  let alive = true;
  let turns: { element: HTMLElement; destroy: () => void } | null = null;
  const box = el('div', { class: 'profile-page' }, el('p', { class: 'muted' }, '…'));
  root.appendChild(box);
  accountApi.user(name).then(
    p => {
      if (!alive) return;
      document.title = `${p.username} · ${t('app.title')}`;
      const list = el('ol', { class: 'profile-games' });
      const more = el('button', { type: 'button', class: 'btn', hidden: '' }, t('profile.more'));
      const gmsg = el('p', { class: 'form-msg', role: 'alert' });
      let next: string | null = null;
      const load = () =>
        accountApi.games(p.username, next ?? undefined).then(
          r => {
            if (!alive) return;
            list.append(...r.games.map(gameRow));
            next = r.next;
            more.hidden = !next;
            if (list.children.length === 0) list.replaceWith(el('p', { class: 'empty' }, t('profile.noGames')));
          },
          e => (gmsg.textContent = errorText(e)),
        );
      more.addEventListener('click', () => void load());
      turns = ownTurns(p.username);
      box.replaceChildren(
        el(
          'section',
          { class: 'panel profile-head' },
          el('h1', {}, p.username),
          el('p', { class: 'muted' }, t('profile.since', { date: date(p.created_at) })),
          el('p', { 'data-role': 'counts' }, t('profile.counts', { all: p.counts.all, rated: p.counts.rated, win: p.counts.win, loss: p.counts.loss, draw: p.counts.draw })),
        ),
        el('section', { class: 'panel', 'aria-labelledby': 'ratings-title' }, el('h2', { id: 'ratings-title' }, t('profile.ratings')), ratingsTable(p)),
        el('section', { class: 'panel', 'aria-labelledby': 'puzzle-ratings-title', 'data-role': 'puzzle-ratings' }, el('h2', { id: 'puzzle-ratings-title' }, t('profile.puzzleRatings')), puzzleRatingsTable(p)),
        turns.element,
        charts(p) ?? '',
        profileTournaments(p.username, () => alive),
        el('section', { class: 'panel', 'aria-labelledby': 'games-title' }, el('h2', { id: 'games-title' }, t('profile.gamesTitle')), list, more, gmsg),
      );
      void load();
    },
    e => {
      if (!alive) return;
      const text = e instanceof ApiError && e.status === 404 ? t('profile.notFound') : errorText(e);
      box.replaceChildren(el('section', { class: 'panel not-found' }, el('p', {}, text), el('a', { href: '/', 'data-link': '' }, t('game.backToLobby'))));
    },
  );
  return () => {
    alive = false;
    turns?.destroy();
  };
}

