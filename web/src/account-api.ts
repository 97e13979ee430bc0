// Client of the accounts API (docs/ACCOUNTS.md): sign-up, log-in and out,
// password change, deletion, profiles, game lists and leaderboards. The
// session is an HttpOnly cookie the page never sees: who is logged in is
// asked of GET /api/account and kept here, with listeners (the header).

import type { Variant } from './fen.js';
import { ApiError, http } from './api.js';
import { games } from './games.js';
import type { PuzzleRatingEntry } from './puzzle-rating.js';

export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type Speed = (typeof SPEEDS)[number];
/** The games played rated, from the server's table. */
export const ratedVariants = (): Variant[] => games().filter(g => g.rated).map(g => g.name);

/** The puzzle rating in each game (docs/API.md "Puzzles"). */
export type PuzzleRatings = Partial<Record<Variant, PuzzleRatingEntry>>;

export interface Me {
  username: string;
  created_at: number;
  /** The trainer's rating in each game, stored with the account (absent until asked of the server). */
  puzzle_ratings?: PuzzleRatings;
}

export interface RatingEntry {
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
}

export interface HistoryPoint {
  at: number;
  rating: number;
  game: string;
}

export interface Profile {
  username: string;
  created_at: number;
  ratings: Partial<Record<Variant, Partial<Record<Speed, RatingEntry>>>>;
  history: Partial<Record<Variant, Partial<Record<Speed, HistoryPoint[]>>>>;
  puzzle_ratings?: PuzzleRatings;
  counts: { all: number; rated: number; win: number; loss: number; draw: number };
}

export interface ProfileGame {
  id: string;
  color: 'white' | 'black';
  variant: Variant;
  speed: Speed | 'unlimited';
  rated: boolean;
  result: 'win' | 'loss' | 'draw';
  ended_at: number;
  opponent: string;
  opponent_has_account: boolean;
  rating_before?: number;
  rating_after?: number;
  rating_diff?: number;
}

export interface LeaderboardRow {
  rank: number;
  username: string;
  rating: number;
  rd: number;
  games: number;
}

let current: Me | null = null;
let known = false;
const listeners = new Set<(me: Me | null) => void>();

/** Whether the profile `name` is the logged-in user's own (names are case-insensitive). */
export function isOwnProfile(name: string, me: { username: string } | null): boolean {
  return !!me && me.username.toLowerCase() === name.toLowerCase();
}

/** The logged-in user as last known (null: anonymous, or not asked yet). */
export function currentUser(): Me | null {
  return current;
}

export function onUserChange(f: (me: Me | null) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

// The session cookie is HttpOnly: the page cannot see whether it has one. It
// remembers here whether it last logged in ('1' at sign-up and log-in, '0' at
// log-out and after a 401), and asks the server only when it did: an
// anonymous page load asks nothing, and so logs no 401 in the browser's
// console. A browser that has no such note but was here before (it has its
// player token: the notes came later) asks once, so that a session made
// before them is not shown as logged out.
const SESSION_HINT_KEY = 'echecs.session';
const returningBrowser = (() => {
  try {
    return localStorage.getItem('echecs.token') !== null;
  } catch {
    return false;
  }
})();

function sessionHint(): boolean {
  try {
    const note = localStorage.getItem(SESSION_HINT_KEY);
    return note === null ? returningBrowser : note === '1';
  } catch {
    return false;
  }
}

function setSessionHint(on: boolean): void {
  try {
    localStorage.setItem(SESSION_HINT_KEY, on ? '1' : '0');
  } catch {
    /* storage refused: the next page load asks nothing */
  }
}

function setUser(me: Me | null): void {
  const changed = !known || current?.username !== me?.username;
  current = me;
  known = true;
  setSessionHint(me !== null);
  if (changed) listeners.forEach(f => f(me));
}

/**
 * Asks the server who this browser is logged in as (401: nobody; a server
 * without accounts: nobody); without a session known to this browser, nobody,
 * without asking.
 */
export async function refreshUser(): Promise<Me | null> {
  if (!sessionHint()) {
    setUser(null);
    return current;
  }
  try {
    setUser(await http<Me>('GET', '/api/account'));
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 404)) setUser(null);
    else throw e;
  }
  return current;
}

export async function signUp(username: string, password: string): Promise<void> {
  const r = await http<{ username: string }>('POST', '/api/account', { username, password });
  setUser({ username: r.username, created_at: Date.now() });
  void refreshUser().catch(() => undefined);
}

export async function logIn(username: string, password: string): Promise<void> {
  const r = await http<{ username: string }>('POST', '/api/login', { username, password });
  setUser({ username: r.username, created_at: 0 });
  void refreshUser().catch(() => undefined);
}

export async function logOut(everywhere = false): Promise<void> {
  await http<{ ok: boolean }>('POST', '/api/logout', everywhere ? { everywhere: true } : {});
  setUser(null);
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await http<{ ok: boolean }>('POST', '/api/account/password', { old_password: oldPassword, new_password: newPassword });
}

export async function deleteAccount(password: string): Promise<void> {
  await http<{ ok: boolean }>('DELETE', '/api/account', { password });
  setUser(null);
}

export const accountApi = {
  user: (name: string) => http<Profile>('GET', `/api/users/${encodeURIComponent(name)}`),
  games: (name: string, before?: string, limit = 20) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (before) q.set('before', before);
    return http<{ games: ProfileGame[]; next: string | null }>('GET', `/api/users/${encodeURIComponent(name)}/games?${q}`);
  },
  leaderboard: (variant: Variant, speed: Speed) =>
    http<{ variant: Variant; speed: Speed; players: LeaderboardRow[] }>(
      'GET',
      `/api/leaderboard?variant=${encodeURIComponent(variant)}&speed=${encodeURIComponent(speed)}`,
    ),
};

/** "1523?" for a provisional rating, as lichess shows it. */
export function ratingText(r: { rating: number; provisional?: boolean }): string {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/** "+12", "−8", "±0". */
export function diffText(d: number): string {
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** What the server adds to a player's seat and a seek when accounts play (docs/API.md). */
export interface RatedSeat {
  name: string;
  computer: boolean;
  level: number | null;
  account?: boolean;
  rating?: number | null;
  provisional?: boolean;
}

/** A player's name with their rating in the game's category when they have one: "AnnLee (1500?)". */
export function ratedName(p: RatedSeat, base: string): string {
  return p.rating ? `${base} (${ratingText({ rating: p.rating, provisional: p.provisional })})` : base;
}
