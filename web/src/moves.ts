// Mapping the server's legal move list (coordinate strings) to what the board
// needs: destinations per square, promotion options, Avalanche pushes and
// pending promotion choices. No chess rules here: everything is derived from
// the list the server sent (its SAN comes from the server too: notation.ts).
//
// Grammar: `e2e4`, `e7e8q`, castling `e1g1`; Avalanche `g1f3,e7e6`,
// `g1f3` (no push possible), `q:g1f3,e7e6` (pending promotion chosen as queen).

import type { BoardIndex, Position } from './fen.js';

export interface Push {
  from: string;
  to: string;
}

export interface ParsedMove {
  raw: string;
  /** Avalanche pending-promotion choice: q, r, b or n. */
  choice?: string;
  from: string;
  to: string;
  /** Own promotion of the first part: q, r, b or n. */
  promotion?: string;
  push?: Push;
}

const SQ = /^[a-h][1-8]$/;

export function parseMove(raw: string): ParsedMove {
  let rest = raw.trim();
  let choice: string | undefined;
  const colon = rest.indexOf(':');
  if (colon >= 0) {
    choice = rest.slice(0, colon).toLowerCase();
    rest = rest.slice(colon + 1);
  }
  const [first, second] = rest.split(',');
  const from = first.slice(0, 2);
  const to = first.slice(2, 4);
  if (!SQ.test(from) || !SQ.test(to)) throw new Error(`bad move ${raw}`);
  const m: ParsedMove = { raw, from, to };
  if (choice) m.choice = choice;
  if (first.length > 4) m.promotion = first[4].toLowerCase();
  if (second) {
    const pf = second.slice(0, 2);
    const pt = second.slice(2, 4);
    if (!SQ.test(pf) || !SQ.test(pt)) throw new Error(`bad push in ${raw}`);
    m.push = { from: pf, to: pt };
  }
  return m;
}

export function parseMoves(list: readonly string[]): ParsedMove[] {
  return list.map(parseMove);
}

const CHOICE_ORDER = ['q', 'r', 'b', 'n'];

/** Distinct pending-promotion choices offered (Avalanche part 0), in Q R B N order. */
export function pendingChoices(moves: readonly ParsedMove[]): string[] {
  const set = new Set(moves.map(m => m.choice).filter((c): c is string => !!c));
  return CHOICE_ORDER.filter(c => set.has(c));
}

/** The moves for one pending choice (or all of them when there is no choice). */
export function withChoice(moves: readonly ParsedMove[], choice: string | undefined): ParsedMove[] {
  return moves.filter(m => (m.choice ?? undefined) === choice);
}

/** Destinations per origin square; `onBoard` keeps only pieces standing on that Alice board. */
export function dests(
  moves: readonly ParsedMove[],
  pos?: Position,
  onBoard?: BoardIndex,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of moves) {
    if (pos && onBoard !== undefined && pos.pieces.get(m.from)?.board !== onBoard) continue;
    const list = out.get(m.from);
    if (!list) out.set(m.from, [m.to]);
    else if (!list.includes(m.to)) list.push(m.to);
  }
  return out;
}

/** Promotion letters available for a first part from→to (empty when it is no promotion). */
export function promotionsFor(moves: readonly ParsedMove[], from: string, to: string): string[] {
  const set = new Set<string>();
  for (const m of moves) if (m.from === from && m.to === to && m.promotion) set.add(m.promotion);
  return CHOICE_ORDER.filter(c => set.has(c));
}

/** Moves whose first part is from→to (with that promotion, if any). */
export function matchingFirstPart(
  moves: readonly ParsedMove[],
  from: string,
  to: string,
  promotion?: string,
): ParsedMove[] {
  return moves.filter(m => m.from === from && m.to === to && (m.promotion ?? undefined) === promotion);
}

/** Avalanche: the pushes offered after a first part (empty when the first part alone is the move). */
export function pushesAfter(candidates: readonly ParsedMove[]): Push[] {
  return candidates.filter(m => m.push).map(m => m.push!);
}

/** The move string to send for a first part and an optional push. */
export function findMove(
  candidates: readonly ParsedMove[],
  push?: Push,
): ParsedMove | undefined {
  return candidates.find(m =>
    push ? m.push && m.push.from === push.from && m.push.to === push.to : !m.push,
  );
}
