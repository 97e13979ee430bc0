// FEN parsing for the three variants. The client never implements chess rules;
// it only reads positions sent by the server.
//
// Alice FEN writes the pieces standing on board B with their own letters
// (the server's table of the games says which; upper case white). They are
// parsed into a board flag and never shown to the user.

import { games } from './games.js';

export type Color = 'white' | 'black';
export type Role = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';
export type { Variant } from './games.js';
/** 0 = board A (board 1), 1 = board B (board 2). Always 0 outside Alice. */
export type BoardIndex = 0 | 1;

export interface Piece {
  role: Role;
  color: Color;
  board: BoardIndex;
}

export interface Position {
  pieces: Map<string, Piece>;
  turn: Color;
  castling: string;
  ep: string;
  halfmove: number;
  fullmove: number;
}

export const FILES = 'abcdefgh';
export const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const ROLE_A: Record<string, Role> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const ROLES: Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];

/** The board-B letters of the two-board game, lower case, in ROLES order ("" if none). */
function boardBLetters(): string {
  return (games().find(g => g.boards === 2)?.board_b_letters ?? '').toLowerCase();
}

function boardBRole(letter: string): Role | undefined {
  const i = boardBLetters().indexOf(letter);
  return i >= 0 ? ROLES[i] : undefined;
}
const LETTER: Record<Role, string> = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };

export function roleLetter(role: Role): string {
  return LETTER[role];
}

export function letterRole(letter: string): Role | undefined {
  return ROLE_A[letter.toLowerCase()];
}

export class FenError extends Error {}

/** Parses a FEN of any of the three variants. Alice letters go to board B. */
export function parseFen(fen: string): Position {
  const parts = fen.trim().split(/\s+/);
  const placement = parts[0] ?? '';
  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new FenError('FEN must have 8 ranks');
  const pieces = new Map<string, Piece>();
  ranks.forEach((rankStr, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of rankStr) {
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
        continue;
      }
      const lower = ch.toLowerCase();
      const color: Color = ch === lower ? 'black' : 'white';
      let role: Role | undefined = ROLE_A[lower];
      let board: BoardIndex = 0;
      if (!role) {
        role = boardBRole(lower);
        board = 1;
      }
      if (!role) throw new FenError(`bad piece letter ${ch}`);
      if (file > 7) throw new FenError('rank too long');
      pieces.set(FILES[file] + rank, { role, color, board });
      file++;
    }
    if (file !== 8) throw new FenError(`rank ${rank} has ${file} files`);
  });
  return {
    pieces,
    turn: parts[1] === 'b' ? 'black' : 'white',
    castling: parts[2] ?? '-',
    ep: parts[3] ?? '-',
    halfmove: Number(parts[4] ?? 0) || 0,
    fullmove: Number(parts[5] ?? 1) || 1,
  };
}

/** The placement of one board written with standard letters (what chessground reads). */
export function boardPlacement(pos: Position, board: BoardIndex): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.pieces.get(FILES[f] + rank);
      if (!p || p.board !== board) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const l = LETTER[p.role];
      row += p.color === 'white' ? l.toUpperCase() : l;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

/** The square of a side's king. */
export function kingSquare(pos: Position, color: Color): string | undefined {
  for (const [sq, p] of pos.pieces) if (p.role === 'king' && p.color === color) return sq;
  return undefined;
}

export function opposite(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}

/** Avalanche: a pawn of the side to move on its own last rank is a pending promotion. */
export function pendingPromotionSquare(pos: Position): string | undefined {
  const lastRank = pos.turn === 'white' ? '8' : '1';
  for (const [sq, p] of pos.pieces)
    if (p.role === 'pawn' && p.color === pos.turn && sq[1] === lastRank) return sq;
  return undefined;
}


/** The placement field of a FEN for the pieces of both boards (board B with the Alice letters). */
export function writePlacement(pieces: ReadonlyMap<string, Piece>): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pieces.get(FILES[f] + rank);
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const l = p.board === 1 ? (boardBLetters()[ROLES.indexOf(p.role)] ?? LETTER[p.role]) : LETTER[p.role];
      row += p.color === 'white' ? l.toUpperCase() : l;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}
