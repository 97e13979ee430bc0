// The profile's tournaments (pages/profile.ts): the arenas the player joined,
// as GET /api/tournaments?player= lists them (to come and running, then the
// latest finished, newest first), each linking to its page with its game and
// clock, where it stands, the player's rank among its players and score.

import { PlayerTournament, TournamentSummary, api } from '../api.js';
import { el } from '../dom.js';
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import { dateTime, endedAt, tournamentMeta, tournamentName } from './tournament-parts.js';

/** Where a tournament stands, in a word: "To come", "In progress", "Finished". */
export function statusText(status: TournamentSummary['status']): string {
  if (status === 'finished') return t('tournaments.finished');
  return t(status === 'created' ? 'profile.tournamentUpcoming' : 'profile.tournamentRunning');
}

/** The player's place: "Rank 3 of 12". */
export function rankText(x: Pick<PlayerTournament, 'player' | 'players'>): string {
  return t('profile.tournamentRank', { rank: x.player.rank, players: Math.max(x.players, x.player.rank) });
}

function row(x: PlayerTournament): HTMLElement {
  // a finished one: when it ended; else when it starts (or started)
  const when = x.status === 'finished' ? endedAt(x) : x.starts_at;
  return el(
    'li',
    {
      class: `profile-tournament status-${x.status}`,
      'data-profile-tournament': x.id,
      'data-status': x.status,
      'data-rank': String(x.player.rank),
      'data-score': String(x.player.score),
    },
    el('a', { href: `/tournament/${encodeURIComponent(x.id)}`, 'data-link': '', class: 'profile-tournament-link' }, tournamentName(x)),
    el('span', { class: 'muted' }, tournamentMeta(x)),
    el('span', { class: 'pt-status', title: dateTime(when) }, statusText(x.status)),
    el('span', { class: 'pt-rank' }, rankText(x)),
    el('strong', { class: 'pt-score' }, t('profile.tournamentScore', { score: x.player.score })),
  );
}

/** The section, filled once the list comes; `alive()` false: the page is gone, nothing is drawn. */
export function profileTournaments(name: string, alive: () => boolean): HTMLElement {
  const body = el('div', { class: 'profile-tournaments' }, el('p', { class: 'muted' }, '…'));
  api.tournamentsOf(name).then(
    r => {
      if (!alive()) return;
      body.replaceChildren(
        r.tournaments.length
          ? el('ol', { class: 'profile-tournament-list' }, ...r.tournaments.map(row))
          : el('p', { class: 'empty' }, t('profile.noTournaments')),
      );
    },
    e => alive() && body.replaceChildren(el('p', { class: 'form-msg', role: 'alert' }, errorText(e))),
  );
  return el(
    'section',
    { class: 'panel', 'aria-labelledby': 'profile-tournaments-title' },
    el('h2', { id: 'profile-tournaments-title' }, t('profile.tournaments')),
    body,
  );
}
