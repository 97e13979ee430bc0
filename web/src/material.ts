// Material on the board, read from the FEN (both Alice boards together): the
// pieces one side has more of, and the difference in points, as shown beside
// each player.

import type { Color, Position, Role } from './fen.js';

const VALUE: Record<Role, number> = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };
const ORDER: Role[] = ['queen', 'rook', 'bishop', 'knight', 'pawn'];

export interface MaterialEdge {
  /** The roles this side has more of, one entry per extra piece, queen first. */
  extra: Role[];
  /** Points ahead (0 when level or behind). */
  points: number;
}

export function materialEdge(pos: Position, color: Color): MaterialEdge {
  const count = { white: new Map<Role, number>(), black: new Map<Role, number>() };
  const score = { white: 0, black: 0 };
  for (const p of pos.pieces.values()) {
    count[p.color].set(p.role, (count[p.color].get(p.role) ?? 0) + 1);
    score[p.color] += VALUE[p.role];
  }
  const other: Color = color === 'white' ? 'black' : 'white';
  const extra: Role[] = [];
  for (const r of ORDER) {
    const d = (count[color].get(r) ?? 0) - (count[other].get(r) ?? 0);
    for (let i = 0; i < d; i++) extra.push(r);
  }
  return { extra, points: Math.max(0, score[color] - score[other]) };
}
