// Pure pieces of the tournament pages (pages/tournaments.ts, the list;
// pages/tournament.ts, one arena or Swiss): names, clocks, the arena's sheet
// and a Swiss's rounds, in the page's language. No DOM: the unit tests call them (test/tournaments.test.ts).

import type { TournamentSummary } from '../api.js';
import type { WireSwissRound } from '../protocol.js';
import { formatTime } from '../format.js';
import { variantKey } from '../games.js';
import { lang, t } from '../i18n.js';

type Named = Pick<TournamentSummary, 'name' | 'daily' | 'variant'>;
/** What the clock and the meta line read of a tournament: an arena's fields, a Swiss's when it is one. */
type Timed = Pick<TournamentSummary, 'status' | 'starts_at'> & {
  ends_at: number | null;
  kind?: 'arena' | 'swiss';
  round?: number;
  rounds?: number;
  next_round_at?: number | null;
};

/** The server's daily arenas have no name ("" on the wire): one in the page's language from the game. */
export function tournamentName(x: Named): string {
  return x.daily || !x.name ? t('tournaments.daily', { game: t(variantKey(x.variant)) }) : x.name;
}

/** "Chess · 3+2 · Rated": the game, the clock, rated or casual; a Swiss: "Swiss, 5 rounds" first. */
export function tournamentMeta(x: Pick<TournamentSummary, 'variant' | 'time' | 'rated'> & { kind?: string; rounds?: number }): string {
  const parts = [t(variantKey(x.variant)), formatTime(x.time), t(x.rated ? 'tournaments.rated' : 'tournaments.casual')];
  if (x.kind === 'swiss' && x.rounds) parts.unshift(t('tournaments.swissRounds', { rounds: x.rounds }));
  return parts.join(' · ');
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
 * "Ends in 12:00", "Finished"; a Swiss: "Round 2 of 5", "Round 3 in 0:08".
 * Past its start the server has not yet said it started (it ticks once a
 * second): "Starting…", not a negative time.
 */
export function whenText(x: Timed, now: number): string {
  if (x.status === 'finished') return t('tournaments.finished');
  if (x.status === 'created')
    return x.starts_at > now ? t('tournaments.startsIn', { time: countdown(x.starts_at - now) }) : t('tournaments.starting');
  if (x.kind === 'swiss') {
    const round = x.round ?? 0;
    return x.next_round_at && x.next_round_at > now
      ? t('tournaments.nextRoundIn', { round: round + 1, time: countdown(x.next_round_at - now) })
      : t('tournaments.roundOf', { round, rounds: x.rounds ?? 0 });
  }
  return x.ends_at !== null && x.ends_at > now ? t('tournaments.endsIn', { time: countdown(x.ends_at - now) }) : t('tournaments.ending');
}

/** When a finished tournament ended (a Swiss that never started: its start). */
export function endedAt(x: Timed): number {
  return x.ends_at ?? x.starts_at;
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

/** A Swiss round as the compact row shows it: 1, ½, 0; + and − by forfeit; B the bye; – absent; * playing. */
export function roundMark(r: WireSwissRound): string {
  switch (r.kind) {
    case 'played':
      return r.points === 1 ? '1' : r.points === 0.5 ? '½' : '0';
    case 'live':
      return '*';
    case 'bye':
      return 'B';
    case 'forfeit_win':
      return '+';
    case 'forfeit_loss':
      return '−';
    default:
      return '–';
  }
}

/** A Swiss round in words: "Round 3: White against bob", "Round 2: a bye (1 point)", "Round 1: absent". */
export function roundText(r: WireSwissRound, round: number): string {
  if ((r.kind === 'played' || r.kind === 'live') && r.opponent)
    return t(r.color === 'black' ? 'tournament.pairingBlack' : 'tournament.pairingWhite', { round, name: r.opponent });
  if (r.kind === 'bye') return t('tournament.pairingBye', { round });
  if (r.kind === 'forfeit_win' || r.kind === 'forfeit_loss') return t(`tournament.${r.kind}`, { round, name: r.opponent ?? '' });
  return t('tournament.pairingAbsent', { round });
}
