// Mapping the server's legal move list (coordinate strings) to what the board
// needs: destinations per square, promotion options, Avalanche pushes and
// pending promotion choices, and SAN for keyboard entry. No chess rules here:
// everything is derived from the list the server sent.
//
// Grammar: `e2e4`, `e7e8q`, castling `e1g1`; Avalanche `g1f3,e7e6`,
// `g1f3` (no push possible), `q:g1f3,e7e6` (pending promotion chosen as queen).

import { BoardIndex, FILES, Position, Role, letterRole } from './fen.js';

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

// ---------------------------------------------------------------------------
// SAN derived from the position and the legal list (for display of keyboard
// entry and for matching what the user types).

const SAN_LETTER: Record<Role, string> = { pawn: '', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K' };

function isCastle(pos: Position, m: ParsedMove): boolean {
  const p = pos.pieces.get(m.from);
  return !!p && p.role === 'king' && Math.abs(FILES.indexOf(m.from[0]) - FILES.indexOf(m.to[0])) === 2;
}

/** SAN of a first part (without check suffix), disambiguated among all legal first parts. */
export function firstPartSan(pos: Position, m: ParsedMove, all: readonly ParsedMove[]): string {
  const onBoard = pos.pieces.get(m.from);
  if (!onBoard) return m.from + m.to;
  // Avalanche: with a pending choice, the pawn on its last rank has become the chosen piece
  const chosen = m.choice && onBoard.role === 'pawn' ? letterRole(m.choice) : undefined;
  const piece = chosen ? { ...onBoard, role: chosen } : onBoard;
  if (isCastle(pos, m)) return m.to[0] === 'g' ? 'O-O' : 'O-O-O';
  const target = pos.pieces.get(m.to);
  const capture = !!target || (piece.role === 'pawn' && m.from[0] !== m.to[0]);
  let san = '';
  if (piece.role === 'pawn') {
    if (capture) san += m.from[0];
  } else {
    san += SAN_LETTER[piece.role];
    const rivals = new Set<string>();
    for (const o of all) {
      if (o.to !== m.to || o.from === m.from) continue;
      if (o.choice !== m.choice) continue;
      const op0 = pos.pieces.get(o.from);
      const oc = o.choice && op0?.role === 'pawn' ? letterRole(o.choice) : undefined;
      const op = op0 && oc ? { ...op0, role: oc } : op0;
      if (op && op.role === piece.role && op.color === piece.color) rivals.add(o.from);
    }
    if (rivals.size) {
      const sameFile = [...rivals].some(s => s[0] === m.from[0]);
      const sameRank = [...rivals].some(s => s[1] === m.from[1]);
      if (!sameFile) san += m.from[0];
      else if (!sameRank) san += m.from[1];
      else san += m.from;
    }
  }
  if (capture) san += 'x';
  san += m.to;
  if (m.promotion) san += '=' + m.promotion.toUpperCase();
  return san;
}

/** Full SAN-like text of a legal move (Avalanche: `Q:Nf3,e6`), no check suffix. */
export function moveSan(pos: Position, m: ParsedMove, all: readonly ParsedMove[]): string {
  let san = firstPartSan(pos, m, all);
  if (m.choice) san = m.choice.toUpperCase() + ':' + san;
  if (m.push) san += ',' + m.push.to;
  return san;
}

// Alice seed letters accepted on input: S U O C T L name the piece on board B,
// P names a pawn. The standard letters are accepted too.
const SEED_INPUT: Record<string, string> = { S: '', P: '', U: 'R', O: 'N', C: 'B', T: 'Q', L: 'K' };

function normalizeSan(input: string): string {
  let s = input.trim().replace(/[+#!?]+/g, '').replace(/\s+/g, ',').replace(/0/g, 'O');
  if (/^O-O(-O)?/i.test(s)) return s.toUpperCase();
  // pending choice prefix
  let prefix = '';
  const colon = s.indexOf(':');
  if (colon >= 0) {
    prefix = s.slice(0, colon).toUpperCase() + ':';
    s = s.slice(colon + 1);
  }
  const first = s[0];
  if (first && first in SEED_INPUT && /[A-Z]/.test(first)) s = SEED_INPUT[first] + s.slice(1);
  s = s.replace(/=?([qrbnQRBN])(?=$|,)/, (_, p: string) => '=' + p.toUpperCase());
  return prefix + s;
}

/**
 * The legal move that keyboard input names, or undefined. Accepts SAN (check
 * marks optional, `x` optional, Alice seed letters), UCI (`e2e4`, `e7e8q`,
 * `g1f3,e7e6`) and Avalanche `Nf3,e6` / `Nf3 e6` / `Q:Nf3,e6`.
 */
export function matchInput(pos: Position, moves: readonly ParsedMove[], input: string): ParsedMove | undefined {
  const raw = input.trim();
  if (!raw) return undefined;
  const lowered = raw.toLowerCase().replace(/\s+/g, ',');
  const exact = moves.find(m => m.raw.toLowerCase() === lowered);
  if (exact) return exact;
  // Alice seed style for pawns: `Sxe4`, `Pe4` (the letter names the pawn, no file given)
  const seedPawn = /^[SP](x?)([a-h][1-8])(?:=?([QRBNqrbn]))?[+#!?]*$/.exec(raw);
  if (seedPawn) {
    const [, x, sq, promo] = seedPawn;
    const pawnHits = moves.filter(m => {
      const p = pos.pieces.get(m.from);
      if (!p || p.role !== 'pawn' || m.to !== sq || m.push || m.choice) return false;
      const capture = m.from[0] !== m.to[0];
      if (x && !capture) return false;
      return (m.promotion ?? '') === (promo ?? '').toLowerCase();
    });
    if (pawnHits.length === 1) return pawnHits[0];
  }
  const norm = normalizeSan(raw);
  const noX = (s: string) => s.replace(/x/g, '');
  const hits = moves.filter(m => {
    const san = moveSan(pos, m, moves);
    return san === norm || noX(san) === noX(norm);
  });
  if (hits.length === 1) return hits[0];
  // Avalanche: first part alone named while a push is needed: take it if the push is forced.
  return undefined;
}

/** Moves whose first part matches typed SAN (used to start an Avalanche move from the keyboard). */
export function matchFirstPart(pos: Position, moves: readonly ParsedMove[], input: string): ParsedMove[] {
  const norm = normalizeSan(input);
  const noX = (s: string) => s.replace(/x/g, '');
  return moves.filter(m => {
    const san = (m.choice ? m.choice.toUpperCase() + ':' : '') + firstPartSan(pos, m, moves);
    return san === norm || noX(san) === noX(norm);
  });
}
