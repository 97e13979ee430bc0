// Whose puzzle rating the trainer shows (docs/PUZZLES.md "Rating"): a
// logged-in player's is the server's, stored with the account and sent back
// by each finished attempt (which says whether it was rated: only the first
// attempt at a puzzle is); an anonymous player's is this browser's, kept in
// localStorage and sent with each attempt. Pure functions: the page keeps
// the state.

import type { PuzzleAttempt, PuzzlePlayer } from './api.js';

/** An account's puzzle rating in one game, as GET /api/account and the profiles give it. */
export interface PuzzleRatingEntry {
  rating: number;
  rd: number;
  puzzles: number;
  provisional: boolean;
}

/** A new solver's rating (the server's defaults). */
export const NEW_PUZZLE_RATING: PuzzleRatingEntry = { rating: 1500, rd: 500, puzzles: 0, provisional: true };

/** Whether an attempt's answer carries the account's rating (it says `rated`) rather than the browser's. */
export function isAccountAnswer(r: PuzzleAttempt): boolean {
  return typeof r.rated === 'boolean';
}

/** The account's entry after a finished attempt (null: the answer is the browser's, or not rated at all). */
export function accountEntry(r: PuzzleAttempt): PuzzleRatingEntry | null {
  if (!isAccountAnswer(r) || !r.player) return null;
  return {
    rating: Math.round(r.player.rating),
    rd: Math.round(r.player.deviation),
    puzzles: r.puzzles ?? 0,
    provisional: !!r.player.provisional,
  };
}

/** "1523?": the account's rating when logged in, else the browser's, else a new solver's. */
export function puzzleRatingText(loggedIn: boolean, account: PuzzleRatingEntry | undefined, browser: PuzzlePlayer | null): string {
  if (loggedIn) {
    const a = account ?? NEW_PUZZLE_RATING;
    return `${a.rating}${a.provisional ? '?' : ''}`;
  }
  return browser ? `${Math.round(browser.rating)}${browser.provisional ? '?' : ''}` : '1500?';
}

/** " (+12)", " (−8)", " (±0)"; "" when the answer carries no rating change. */
export function ratingDiffText(r: PuzzleAttempt): string {
  const d = r.rating_diff;
  if (d === undefined) return '';
  return ` (${d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0'})`;
}
