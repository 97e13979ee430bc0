// Alice: the piece passes through the looking glass. After a move the piece
// (and a castling rook) flies from its square on the board it left to the
// same square of the other board, over the page; the boards stay usable.

import type { Api } from 'chessground/api';
import type { Key, Piece as CgPiece } from 'chessground/types';
import type { BoardIndex, Color, Position } from './fen.js';
import type { ParsedMove } from './moves.js';
import { el } from './dom.js';

const FLY_MS = 320;

export class AliceFlight {
  constructor(
    private cgs: Api[],
    private orientation: () => Color,
  ) {}


  private squareRect(board: BoardIndex, key: string): DOMRect {
    const cg = this.cgs[board];
    cg.state.dom.bounds.clear();
    const b = cg.state.dom.bounds();
    const file = key.charCodeAt(0) - 97;
    const rank = Number(key[1]) - 1;
    const w = b.width / 8;
    const h = b.height / 8;
    const x = this.orientation() === 'white' ? file : 7 - file;
    const y = this.orientation() === 'white' ? 7 - rank : rank;
    return new DOMRect(b.left + x * w, b.top + y * h, w, h);
  }

  private fly(piece: CgPiece, from: DOMRect, to: DOMRect, done: () => void): void {
    const wrap = el('div', { class: 'cg-wrap flyer-wrap' });
    const p = el('piece', { class: `${piece.color} ${piece.role} flyer` });
    p.style.width = `${from.width}px`;
    p.style.height = `${from.height}px`;
    p.style.transform = `translate(${from.left}px, ${from.top}px)`;
    wrap.appendChild(p);
    document.body.appendChild(wrap);
    requestAnimationFrame(() => {
      p.style.transition = `transform ${FLY_MS}ms ease-in-out`;
      p.style.transform = `translate(${to.left}px, ${to.top}px)`;
    });
    const finish = () => {
      if (!wrap.isConnected) return;
      wrap.remove();
      done();
    };
    p.addEventListener('transitionend', finish);
    setTimeout(finish, FLY_MS + 120);
  }

  /** After a local move on `board`: the piece (and a castling rook) goes to the other board. */
  flyLocal(pos: Position, board: BoardIndex, from: string, to: string): void {
    const src = this.cgs[board];
    const other = (1 - board) as BoardIndex;
    const dst = this.cgs[other];
    const movers: [string, CgPiece][] = [];
    const piece = src.state.pieces.get(to as Key);
    if (piece) movers.push([to, piece]);
    const orig = pos.pieces.get(from);
    if (orig?.role === 'king' && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
      const rookSq = (to[0] === 'g' ? 'f' : 'd') + to[1];
      const rook = src.state.pieces.get(rookSq as Key);
      if (rook) movers.push([rookSq, rook]);
    }
    for (const [sq, pc] of movers) {
      const a = this.squareRect(board, sq);
      const b = this.squareRect(other, sq);
      src.setPieces(new Map([[sq as Key, undefined]]));
      this.fly(pc, a, b, () => dst.setPieces(new Map([[sq as Key, pc]])));
    }
  }

  /** The DOM element chessground shows for the piece on `key` of a board. */
  private pieceEl(board: BoardIndex, key: string): HTMLElement | undefined {
    let e = this.cgs[board].state.dom.elements.board.firstElementChild as (HTMLElement & { cgKey?: string }) | null;
    for (; e; e = e.nextElementSibling as (HTMLElement & { cgKey?: string }) | null)
      if (e.tagName === 'PIECE' && e.cgKey === key) return e;
    return undefined;
  }

  /**
   * A move that arrived from the server, already applied to the boards: the
   * piece flies from its square on the board it left to its square on the
   * other board (with a castling rook). The boards accept moves meanwhile.
   */
  animate(prev: Position, pos: Position, last: ParsedMove): void {
    const orig = prev.pieces.get(last.from);
    const now = pos.pieces.get(last.to);
    if (!orig || !now || orig.board === now.board) return;
    const movers: [string, string, BoardIndex, BoardIndex][] = [[last.from, last.to, orig.board, now.board]];
    if (orig.role === 'king' && Math.abs(last.from.charCodeAt(0) - last.to.charCodeAt(0)) === 2) {
      const rookFrom = (last.to[0] === 'g' ? 'h' : 'a') + last.to[1];
      const rookTo = (last.to[0] === 'g' ? 'f' : 'd') + last.to[1];
      const rook = pos.pieces.get(rookTo);
      if (rook) movers.push([rookFrom, rookTo, 0, rook.board]);
    }
    for (const [from, to, src, dst] of movers) {
      const p = pos.pieces.get(to)!;
      const target = this.pieceEl(dst, to);
      if (target) target.style.visibility = 'hidden';
      this.fly({ role: p.role, color: p.color }, this.squareRect(src, from), this.squareRect(dst, to), () => {
        if (target) target.style.visibility = '';
      });
    }
  }
}
