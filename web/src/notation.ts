// Move notation in the user's language: the SAN the server writes shown as
// figurines or letters, and moves typed in French or English letters matched
// against the server's legal moves and their SAN. No chess rule here: a typed
// move is only compared with what the server said is legal.
//
// Letters: English K Q R B N, French R D T F C (P for a pawn, optional, in
// both). Only R means different pieces in the two languages (roi / rook): it
// is read in the interface's language. A lower-case letter that is also a file
// (b c d f) is read as a file first, as a piece only when that matches nothing.

import type { Color, Role } from './fen.js';
import type { Lang } from './i18n.js';
import type { ParsedMove } from './moves.js';

export type NotationStyle = 'figurine' | 'letters';

const EN_LETTER: Record<string, Role> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const FR_LETTER: Record<string, Role> = { R: 'king', D: 'queen', T: 'rook', F: 'bishop', C: 'knight', P: 'pawn' };
const LETTER_OF: Record<Lang, Record<Role, string>> = {
  en: { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' },
  fr: { king: 'R', queen: 'D', rook: 'T', bishop: 'F', knight: 'C', pawn: 'P' },
};
const FIGURINE: Record<Color, Record<Role, string>> = {
  white: { king: '♔', queen: '♕', rook: '♖', bishop: '♗', knight: '♘', pawn: '♙' },
  black: { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' },
};
const FIGURINE_ROLE: Record<string, Role> = {};
for (const c of ['white', 'black'] as Color[])
  for (const [role, g] of Object.entries(FIGURINE[c])) FIGURINE_ROLE[g] = role as Role;

const PROMO_LETTER: Record<Role, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n', king: 'k', pawn: 'p' };

/** The server's SAN (English letters) as the user reads it: figurines, or the letters of the language. */
export function displaySan(san: string, style: NotationStyle, lang: Lang, mover: Color): string {
  // In SAN every upper-case K Q R B N is a piece letter (files are lower case, castling is O).
  return san.replace(/[KQRBN]/g, l => {
    const role = EN_LETTER[l];
    return style === 'figurine' ? FIGURINE[mover][role] : LETTER_OF[lang][role];
  });
}

/** A piece letter in the user's language (for hints such as "Cf3"). */
export function pieceLetter(role: Role, lang: Lang): string {
  return LETTER_OF[lang][role];
}

// ---------------------------------------------------------------------------
// typed moves

export type TypedResult =
  | { kind: 'move'; move: ParsedMove }
  /** Avalanche: the first part is named, the push is to be chosen on the board. */
  | { kind: 'first'; moves: ParsedMove[] }
  | { kind: 'ambiguous'; moves: ParsedMove[] }
  | { kind: 'none' };

interface FirstPart {
  castle?: 'O-O' | 'O-O-O';
  /** undefined: any piece (coordinate notation such as g1f3). */
  role?: Role;
  fromFile?: string;
  fromRank?: string;
  to?: string;
  promo?: Role;
}

interface Reading {
  choice?: Role;
  first: FirstPart;
  /** Push: arrival square, or from and to (coordinates). */
  push?: { from?: string; to: string };
  /** 0: the letters read as written; 1: a lower-case file letter read as a piece. */
  tier: number;
}

/** The role a typed letter names: figurine, English or French letter (R in the interface's language). */
function letterRoles(ch: string, lang: Lang): { role: Role; tier: number }[] {
  if (FIGURINE_ROLE[ch]) return [{ role: FIGURINE_ROLE[ch], tier: 0 }];
  const up = ch.toUpperCase();
  const lower = ch !== up;
  const out: { role: Role; tier: number }[] = [];
  const tier = lower && /[a-h]/.test(ch) ? 1 : 0;
  if (up === 'R') out.push({ role: lang === 'fr' ? 'king' : 'rook', tier });
  else if (EN_LETTER[up]) out.push({ role: EN_LETTER[up], tier });
  else if (FR_LETTER[up]) out.push({ role: FR_LETTER[up], tier });
  return out;
}

const PIECE_CHARS = 'KQRBNPDTFCkqrbnpdtfc♔♕♖♗♘♙♚♛♜♝♞♟';

function readFirst(s: string, lang: Lang): { first: FirstPart; tier: number }[] {
  const c = s.replace(/0/g, 'O').toUpperCase();
  if (c === 'O-O' || c === 'OO') return [{ first: { castle: 'O-O' }, tier: 0 }];
  if (c === 'O-O-O' || c === 'OOO') return [{ first: { castle: 'O-O-O' }, tier: 0 }];
  const body = s.replace(/[x:=-]/g, '');
  const out: { first: FirstPart; tier: number }[] = [];
  const tail = (rest: string): Omit<FirstPart, 'role'>[] => {
    // [file][rank] destination [promotion]
    const m = /^([a-h])?([1-8])?([a-h][1-8])(.)?$/.exec(rest);
    if (!m) return [];
    const [, ff, fr, to, p] = m;
    if (p === undefined) return [{ fromFile: ff, fromRank: fr, to }];
    return letterRoles(p, lang)
      .filter(r => r.role !== 'king' && r.role !== 'pawn')
      .map(r => ({ fromFile: ff, fromRank: fr, to, promo: r.role }));
  };
  // the first character as a piece letter
  if (body.length > 0 && PIECE_CHARS.includes(body[0]))
    for (const r of letterRoles(body[0], lang))
      for (const t of tail(body.slice(1))) out.push({ first: { ...t, role: r.role }, tier: r.tier });
  // no piece letter: a pawn, or coordinates (from and to squares: any piece)
  for (const t of tail(body)) {
    const coords = t.fromFile !== undefined && t.fromRank !== undefined;
    out.push({ first: { ...t, role: coords ? undefined : 'pawn' }, tier: 0 });
  }
  return out;
}

/** All readings of what the user typed. */
function readings(input: string, lang: Lang): Reading[] {
  let s = input.trim().replace(/[+#!?†‡]+/g, '').replace(/e\.p\.?/gi, '').trim();
  s = s.replace(/\s*,\s*|\s+/g, ',');
  if (!s) return [];
  let choices: { role?: Role; tier: number }[] = [{ tier: 0 }];
  const colon = /^(.)\s*:/.exec(s);
  if (colon) {
    choices = letterRoles(colon[1], lang).filter(r => r.role !== 'king' && r.role !== 'pawn');
    s = s.slice(colon[0].length);
  }
  const [firstText, pushText, extra] = s.split(',');
  if (extra !== undefined || !firstText) return [];
  let push: Reading['push'];
  if (pushText !== undefined) {
    const pm = /^(?:([a-h][1-8])-?)?([a-h][1-8])$/.exec(pushText.replace(/^P/i, ''));
    if (!pm) return [];
    push = { from: pm[1], to: pm[2] };
  }
  const out: Reading[] = [];
  for (const ch of choices)
    for (const f of readFirst(firstText, lang))
      out.push({ choice: ch.role, first: f.first, push, tier: Math.max(ch.tier, f.tier) });
  return out;
}

/** What a legal move's SAN says about its first part (the server's SAN, English letters). */
function sanFirst(san: string): { role: Role | 'castle'; castle?: string } | undefined {
  const s = san.replace(/^[QRBN]:/, '');
  if (s.startsWith('O-O-O')) return { role: 'castle', castle: 'O-O-O' };
  if (s.startsWith('O-O')) return { role: 'castle', castle: 'O-O' };
  const l = s[0];
  if (l && EN_LETTER[l]) return { role: EN_LETTER[l] };
  if (l && /[a-h]/.test(l)) return { role: 'pawn' };
  return undefined;
}

function matches(r: Reading, m: ParsedMove, san: string | undefined): boolean {
  const want = r.choice ? PROMO_LETTER[r.choice] : undefined;
  if (want !== undefined && m.choice !== want) return false;
  if (r.push) {
    if (!m.push || m.push.to !== r.push.to || (r.push.from && m.push.from !== r.push.from)) return false;
  }
  const f = r.first;
  const info = san ? sanFirst(san) : undefined;
  if (f.castle) return info?.role === 'castle' && info.castle === f.castle;
  if (f.to !== m.to) return false;
  if (f.fromFile && m.from[0] !== f.fromFile) return false;
  if (f.fromRank && m.from[1] !== f.fromRank) return false;
  // a promotion without its piece matches the four (and is then ambiguous)
  if (f.promo && PROMO_LETTER[f.promo] !== m.promotion) return false;
  if (!f.promo && m.promotion && f.role !== undefined && f.role !== 'pawn') return false;
  if (f.role !== undefined) {
    if (!info) return false;
    if (info.role === 'castle') return false;
    if (info.role !== f.role) return false;
  }
  return true;
}

const firstKey = (m: ParsedMove) => `${m.choice ?? ''}:${m.from}${m.to}${m.promotion ?? ''}`;

/**
 * The legal move(s) that typed text names. `moves` and `sans` are the
 * server's legal moves and their SAN in the same order (`sans` may be
 * empty when a server does not send it: then only coordinates are read).
 */
export function matchTyped(
  input: string,
  moves: readonly ParsedMove[],
  sans: readonly string[],
  lang: Lang,
): TypedResult {
  const raw = input.trim();
  if (!raw) return { kind: 'none' };
  // the coordinate string exactly as the server writes it
  const coord = raw.toLowerCase().replace(/\s*,\s*|\s+/g, ',');
  const exact = moves.find(m => m.raw === coord);
  if (exact) return { kind: 'move', move: exact };
  // the server's SAN as written in the letters of the interface (check marks optional)
  const bare = (s: string) => s.replace(/[+#]+$/, '');
  const bySan = moves.filter((m, i) => sans[i] && bare(displaySan(sans[i], 'letters', lang, 'white')) === bare(raw));
  if (bySan.length === 1) return { kind: 'move', move: bySan[0] };
  const rs = readings(raw, lang);
  for (const tier of [0, 1]) {
    const hit = new Set<number>();
    for (const r of rs) {
      if (r.tier !== tier) continue;
      moves.forEach((m, i) => {
        if (matches(r, m, sans[i])) hit.add(i);
      });
    }
    if (hit.size === 0) continue;
    const found = [...hit].sort((a, b) => a - b).map(i => moves[i]);
    if (found.length === 1) return { kind: 'move', move: found[0] };
    const pushTyped = rs.some(r => r.push);
    if (!pushTyped && new Set(found.map(firstKey)).size === 1) {
      // Avalanche: one first part named, several pushes possible
      return { kind: 'first', moves: found };
    }
    return { kind: 'ambiguous', moves: found };
  }
  return { kind: 'none' };
}
