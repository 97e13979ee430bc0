// The games the server plays, as data: the core's table sent by the server
// (GET /api/variants, docs/API.md). The client keeps no list of games of its
// own and asks a game's properties (two boards, pushes), never its name, so
// a game added to the core's table appears in every menu and page.

import { el } from './dom.js';
import { t, type Key } from './i18n.js';

/** A game's API name ("chess", "alice", "avalanche", ...). */
export type Variant = string;

export interface GameInfo {
  name: Variant;
  /** The PGN [Variant] value ("" for chess: no tag). */
  pgn: string;
  /** 2 for Alice chess: a move passes the piece to the other board. */
  boards: 1 | 2;
  /** Avalanche: each move is followed by a push of an enemy pawn. */
  pushes: boolean;
  /** FEN letters of the pieces on board B (pawn, knight, bishop, rook, queen, king), "" with one board. */
  board_b_letters: string;
  start_fen: string;
  /** The translation key of the game's name. */
  display_key: string;
  /** Played rated (ratings, leaderboard, profile). */
  rated: boolean;
}

let table: GameInfo[] = [];

/** Sets the table (the server's answer; the unit tests' fixture). */
export function setGames(list: GameInfo[]): void {
  table = list;
}

/** Every game, in the server's order (the first is the default). */
export function games(): readonly GameInfo[] {
  return table;
}

export function isVariant(s: string | null | undefined): s is Variant {
  return table.some(g => g.name === s);
}

/** `s` if it names a game, else the first game (a URL's ?variant=). */
export function variantOr(s: string | null | undefined, fallback?: Variant): Variant {
  return isVariant(s) ? s : (fallback ?? table[0]?.name ?? 'chess');
}

/** A game's row; a name the table does not hold is drawn as one board without pushes. */
export function gameInfo(v: Variant): GameInfo {
  return table.find(g => g.name === v) ?? { name: v, pgn: v, boards: 1, pushes: false, board_b_letters: '', start_fen: '', display_key: `variant.${v}`, rated: false };
}

export const twoBoards = (v: Variant): boolean => gameInfo(v).boards === 2;
export const hasPushes = (v: Variant): boolean => gameInfo(v).pushes;

/** The translation key of a game's name (each game has one in both languages: i18n.test.ts). */
export function variantKey(v: Variant): Key {
  return gameInfo(v).display_key as Key;
}

/** The menu of the games, `selected` chosen (the analysis, editor, problems and puzzle pages). */
export function variantSelect(selected: Variant): HTMLSelectElement {
  const sel = el('select', { name: 'variant', 'aria-label': t('lobby.variant') });
  for (const { name: v } of games()) sel.appendChild(el('option', { value: v }, t(variantKey(v))));
  sel.value = selected;
  return sel;
}
