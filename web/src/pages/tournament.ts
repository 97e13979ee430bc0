// One tournament, /tournament/<id> (docs/API.md, "Tournaments"): its name, game,
// clock and time to the start or the end (a Swiss: its round; its own parts
// are pages/tournament-swiss.ts); the join and pause buttons; the
// standings (each player's points per game, those that counted double on a
// streak, the game they are playing); the games in progress. Kept live by
// the socket's `tournament_watch` (the server pushes the standings at each
// change); the player paired by the arena is taken to the game by main.ts's
// `tournament_paired` handler, on whatever page they are.
//
// The standings are the only part redrawn on each push: the buttons keep
// their focus and the page does not jump while the player reads it.

import { ApiError, TournamentMe, api, ws } from '../api.js';
import { currentUser, onUserChange, ratingText } from '../account-api.js';
import { clear, el, svgIcon } from '../dom.js';
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import type { WireSwissTournament, WireTournament, WireTournamentStanding } from '../protocol.js';
import { dateTime, doubledGames, tournamentMeta, tournamentName, whenText } from './tournament-parts.js';
import { swissGames, swissMine, swissTable } from './tournament-swiss.js';

/** A flame (drawn for this page): the player is on fire, their games count double. */
const FLAME = 'M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 1.6-5 3-6.2.2 2.1 1.2 3.6 2.8 3.9C11.2 8.6 10.8 5.4 12 2z';

/** An eye: watch the player's game (the word beside it on a wide screen). */
const EYE = 'M12 5C7 5 2.8 8 1 12c1.8 4 6 7 11 7s9.2-3 11-7c-1.8-4-6-7-11-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z';

function fire(): HTMLElement {
  return el('span', { class: 'fire', title: t('tournament.onFire') }, svgIcon(FLAME), el('span', { class: 'sr-only' }, t('tournament.onFire')));
}

/** The points of each game in order, those played on fire marked (they counted double). */
function sheet(s: WireTournamentStanding): HTMLElement {
  const doubled = doubledGames(s.results);
  // read out as one sentence; the digits are for the eye
  const box = el('span', { class: 'sheet' }, el('span', { class: 'sr-only' }, t('tournament.sheet', { points: s.points.join(' ') || '–' })));
  s.points.forEach((p, i) => box.appendChild(el('span', { class: `pt${doubled[i] ? ' double' : ''}`, 'aria-hidden': 'true' }, String(p))));
  return box;
}

function standingRow(s: WireTournamentStanding, mine: boolean): HTMLElement {
  const who = el(
    'td',
    { class: 'who' },
    el('a', { href: `/@/${encodeURIComponent(s.name)}`, 'data-link': '', class: 'name' }, s.name),
    el('span', { class: 'rating muted' }, ratingText(s)),
    s.paused ? el('span', { class: 'badge paused', 'data-role': 'paused' }, t('tournament.paused')) : null,
  );
  const game = s.game
    ? el(
        'a',
        { href: `/game/${encodeURIComponent(s.game)}`, 'data-link': '', class: 'btn small watch', 'data-role': 'standing-game', 'aria-label': t('tournament.watchGameOf', { name: s.name }) },
        svgIcon(EYE),
        el('span', { class: 'watch-text' }, t('tournament.watch')),
      )
    : null;
  return el(
    'tr',
    { 'data-standing': s.name, 'data-score': String(s.score), class: mine ? 'mine' : undefined },
    el('td', { class: 'rank' }, String(s.rank)),
    who,
    el('td', { class: 'points' }, sheet(s)),
    el('td', { class: 'score' }, el('strong', {}, String(s.score)), s.fire ? fire() : null),
    el('td', { class: 'go' }, game),
  );
}

export function tournamentPage(root: HTMLElement, id: string): () => void {
  let alive = true;
  let view: WireTournament | WireSwissTournament | null = null;
  let me: TournamentMe = { joined: false };
  /** The server's clock minus this one's (from the answer's `now`). */
  let offset = 0;
  let busy = false;
  const serverNow = () => Date.now() + offset;

  const title = el('h1', { id: 'tournament-title' }, '…');
  const meta = el('p', { class: 'tournament-meta' });
  const when = el('p', { class: 'tournament-when', 'data-role': 'countdown' });
  const start = el('p', { class: 'muted tournament-start' });
  const actions = el('div', { class: 'tournament-actions' });
  const msg = el('p', { class: 'form-msg', 'aria-live': 'polite' });
  const rules = el('p', { class: 'hint' });
  const standings = el('div', { class: 'table-scroll standings-box' }, el('p', { class: 'muted' }, '…'));
  const gamesBox = el('ul', { class: 'tournament-games' });
  const page = el(
    'div',
    { class: 'tournament-page', 'data-tournament': id },
    el(
      'section',
      { class: 'panel tournament-head', 'aria-labelledby': 'tournament-title' },
      title,
      meta,
      when,
      start,
      actions,
      msg,
      rules,
    ),
    // beside the header on a wide screen, under it on a phone (css/tournaments.css)
    el('section', { class: 'panel tournament-standings', 'aria-labelledby': 'standings-title' }, el('h2', { id: 'standings-title' }, t('tournament.standings')), standings),
    el('section', { class: 'panel tournament-live', 'aria-labelledby': 'tournament-games-title' }, el('h2', { id: 'tournament-games-title' }, t('tournament.games')), gamesBox),
  );
  root.appendChild(page);

  const renderWhen = () => {
    if (!view) return;
    when.textContent = whenText(view, serverNow());
    when.dataset.status = view.status;
  };

  const button = (label: string, action: string, cls: string, f: () => Promise<unknown>) => {
    const b = el('button', { type: 'button', class: `btn ${cls}`, 'data-action': action }, label);
    b.disabled = busy;
    b.addEventListener('click', async () => {
      busy = b.disabled = true;
      msg.textContent = '';
      try {
        await f();
      } catch (e) {
        msg.textContent = errorText(e);
      }
      busy = false;
      if (!alive) return;
      const focused = document.activeElement === b;
      renderActions();
      // the button became the other one (join, pause): the keyboard stays on it
      if (focused) actions.querySelector<HTMLButtonElement>('button')?.focus();
    });
    return b;
  };
  const takePart = async (join: boolean) => {
    const r = join ? await api.joinTournament(id) : await api.withdrawTournament(id);
    if (!alive) return;
    me = r.me;
    // the summary's fields over the view's (a tournament's kind never changes)
    if (view) view = { ...view, ...r.tournament } as typeof view;
  };

  /** Join, pause or come back, the player's own game; a prompt to log in for a visitor. */
  const renderActions = () => {
    clear(actions);
    if (!view) return;
    if (view.status === 'finished') {
      actions.appendChild(el('p', { class: 'tournament-over' }, t('tournament.over')));
      return;
    }
    if (!currentUser()) {
      actions.append(
        el('p', {}, t('tournament.loginToJoin')),
        el('a', { href: `/login?next=/tournament/${encodeURIComponent(id)}`, 'data-link': '', class: 'btn primary', 'data-action': 'login' }, t('nav.login')),
      );
      return;
    }
    const playing = me.joined && !me.paused;
    if (view.kind === 'swiss') {
      // the pairing of this round (or what the player waits for), then withdraw or (again) join
      actions.appendChild(swissMine(view, me));
      if (playing) actions.appendChild(button(t('tournament.withdraw'), 'withdraw', '', () => takePart(false)));
      else actions.appendChild(button(t(me.joined ? 'tournament.comeBack' : 'tournament.join'), 'join', 'primary', () => takePart(true)));
      return;
    }
    if (playing) {
      if (me.joined && me.game)
        actions.appendChild(el('a', { href: `/game/${encodeURIComponent(me.game)}`, 'data-link': '', class: 'btn primary', 'data-role': 'my-game' }, t('tournament.yourGame')));
      else actions.appendChild(el('p', { class: 'tournament-you', 'data-role': 'waiting' }, t(view.status === 'started' ? 'tournament.waitingPairing' : 'tournament.waitingStart')));
      actions.appendChild(button(t(view.status === 'started' ? 'tournament.pause' : 'tournament.withdraw'), 'withdraw', '', () => takePart(false)));
    } else {
      if (me.joined) actions.appendChild(el('p', { class: 'tournament-you' }, t('tournament.pausedNote')));
      actions.appendChild(button(t(me.joined ? 'tournament.comeBack' : 'tournament.join'), 'join', 'primary', () => takePart(true)));
    }
  };

  const renderStandings = () => {
    if (!view) return;
    const mine = me.joined ? me.name : null;
    if (!view.standings.length) standings.replaceChildren(el('p', { class: 'empty' }, t('tournament.noPlayers')));
    else if (view.kind === 'swiss') standings.replaceChildren(swissTable(view, mine));
    else
      standings.replaceChildren(
        el(
          'table',
          { class: 'ratings-table standings' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col' }, '#'),
              el('th', { scope: 'col' }, t('leaderboard.player')),
              el('th', { scope: 'col' }, t('tournament.points')),
              el('th', { scope: 'col' }, t('tournament.score')),
              el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, t('tournament.game'))),
            ),
          ),
          el('tbody', {}, ...view.standings.map(s => standingRow(s, s.name === mine))),
        ),
      );
    clear(gamesBox);
    if (view.kind === 'swiss') {
      gamesBox.append(...swissGames(view));
      return;
    }
    if (!view.games.length) gamesBox.appendChild(el('li', { class: 'empty' }, t('tournament.noGames')));
    for (const g of view.games)
      gamesBox.appendChild(el('li', {}, el('a', { href: `/game/${encodeURIComponent(g.id)}`, 'data-link': '', 'data-game': g.id }, t('tournament.versus', { white: g.white, black: g.black }))));
  };

  /** A view from the server (the answer or a push): the header, the standings, and the player's own line. */
  const show = (v: WireTournament | WireSwissTournament) => {
    view = v;
    title.textContent = tournamentName(v);
    document.title = `${tournamentName(v)} · ${t('app.title')}`;
    // a Swiss's line names it already ("Swiss, 5 rounds · ...")
    meta.textContent = v.kind === 'swiss' ? tournamentMeta(v) : `${t('tournament.arena')} · ${tournamentMeta(v)}`;
    rules.textContent = t(v.kind === 'swiss' ? 'tournament.swissRules' : 'tournament.rules');
    start.textContent = t('tournament.startAt', { date: dateTime(v.starts_at) });
    page.dataset.status = v.status;
    // the player's line says whether they are paused and playing (their seat may be another browser's: `me` says)
    if (me.joined) {
      const name = me.name;
      if (v.kind === 'swiss') {
        const row = v.standings.find(s => s.name === name);
        const last = row?.rounds[v.round - 1];
        if (row) me = { ...me, paused: row.withdrawn, rank: row.rank, points: row.points, pairing: last && last.kind !== 'absent' ? { ...last, round: v.round } : null };
      } else {
        const row = v.standings.find(s => s.name === name);
        if (row) me = { ...me, paused: row.paused, game: row.game, rank: row.rank };
      }
    }
    renderWhen();
    renderStandings();
    if (!busy) renderActions();
  };

  const sock = ws();
  const offs = [
    sock.on('tournament', m => {
      if (m.tournament.id === id) show(m.tournament);
    }),
    onUserChange(() => {
      // logged in or out: this browser's seat is asked again
      void api.tournament(id).then(r => {
        if (!alive) return;
        me = r.me;
        show(r.tournament);
      }, () => undefined);
    }),
  ];
  api.tournament(id).then(
    r => {
      if (!alive) return;
      offset = r.now - Date.now();
      me = r.me;
      show(r.tournament);
      // an old one, no longer in the server's memory: nothing to watch
      if (!r.archived) sock.watchTournament(id);
    },
    e => {
      if (!alive) return;
      const missing = e instanceof ApiError && e.status === 404;
      page.replaceChildren(
        el(
          'div',
          { class: 'panel not-found' },
          el('p', { role: 'alert' }, missing ? t('err.tournament_not_found') : errorText(e)),
          el('a', { href: '/tournaments', 'data-link': '' }, t('tournament.back')),
        ),
      );
    },
  );
  const timer = window.setInterval(renderWhen, 1000);
  return () => {
    alive = false;
    window.clearInterval(timer);
    offs.forEach(f => f());
    sock.watchTournament(null);
    document.title = t('app.title');
  };
}
