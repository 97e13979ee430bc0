// Pure pieces of the tournament pages (pages/tournaments.ts, the list;
// pages/tournament.ts, one arena): names, clocks and the arena's sheet, in
// the page's language. No DOM: the unit tests call them (test/tournaments.test.ts).

import type { TournamentSummary } from '../api.js';
import { formatTime } from '../format.js';
import { variantKey } from '../games.js';
import { lang, t } from '../i18n.js';

type Named = Pick<TournamentSummary, 'name' | 'daily' | 'variant'>;

/** The server's daily arenas have no name ("" on the wire): one in the page's language from the game. */
export function tournamentName(x: Named): string {
  return x.daily || !x.name ? t('tournaments.daily', { game: t(variantKey(x.variant)) }) : x.name;
}

/** "Chess · 3+2 · Rated": the game, the clock, rated or casual. */
export function tournamentMeta(x: Pick<TournamentSummary, 'variant' | 'time' | 'rated'>): string {
  return [t(variantKey(x.variant)), formatTime(x.time), t(x.rated ? 'tournaments.rated' : 'tournaments.casual')].join(' · ');
}

/** Time to a start or an end, to the second: "0:07", "4:59", "1:02:03"; a day or more: "2 d 5 h". */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  if (d > 0) return t('time.daysHours', { d, h });
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * Where the tournament stands at `now` (the server's clock): "Starts in 4:59",
 * "Ends in 12:00", "Finished". Past its start the server has not yet said it
 * started (it ticks once a second): "Starting…", not a negative time.
 */
export function whenText(x: Pick<TournamentSummary, 'status' | 'starts_at' | 'ends_at'>, now: number): string {
  if (x.status === 'finished') return t('tournaments.finished');
  if (x.status === 'created')
    return x.starts_at > now ? t('tournaments.startsIn', { time: countdown(x.starts_at - now) }) : t('tournaments.starting');
  return x.ends_at > now ? t('tournaments.endsIn', { time: countdown(x.ends_at - now) }) : t('tournaments.ending');
}

/** A moment in the reader's own time zone and language: "5 Dec 2026, 19:00". */
export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString(lang(), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * Which games of a player counted double: those played on fire, after two
 * wins in a row (the arena's rule, server/tournament/arena.h), from the
 * player's results in order ("WWWDL": the third only).
 */
export function doubledGames(results: string): boolean[] {
  let wins = 0;
  return [...results].map(r => {
    const doubled = wins >= 2;
    wins = r === 'W' ? wins + 1 : 0;
    return doubled;
  });
}
