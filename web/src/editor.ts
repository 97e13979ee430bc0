// The position editor of the problems and editor pages: one chessground
// board (two for Alice) with free moves, and a palette — pick a piece, tap
// squares to place it, the eraser to remove; drag to move, off the board to
// remove. It edits only the placement: no rule is checked here (the server
// says what is wrong with a position).

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key, Piece as CgPiece } from 'chessground/types';
import { clear, el } from './dom.js';
import { BoardIndex, Color, INITIAL_FEN, Piece, Role, Variant, boardPlacement, parseFen, writePlacement } from './fen.js';
import { t } from './i18n.js';
import { twoBoards } from './games.js';

const ROLES: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
export const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';
const ALICE_B: Record<string, string> = { s: 'p', o: 'n', u: 'r', c: 'b', t: 'q', l: 'k' };

/** Outside Alice the board-B letters mean nothing: the same diagram on one board. */
export function oneBoard(fen: string): string {
  const [placement, ...rest] = fen.trim().split(/\s+/);
  const mapped = (placement ?? '').replace(/[souctl]/gi, c => {
    const r = ALICE_B[c.toLowerCase()]!;
    return c === c.toLowerCase() ? r : r.toUpperCase();
  });
  return [mapped, ...rest].join(' ');
}

/** A tool of the palette: a piece to put on the squares tapped, or the eraser. */
type Tool = { color: Color; role: Role } | 'erase' | null;

export class BoardEditor {
  private cgs: Api[] = [];
  private tool: Tool = null;

  /**
   * `onChange(placement)` runs after every edit with the FEN placement field
   * (Alice letters for board B); `onReset(fen)` when a palette button sets a
   * whole position (empty board, start position).
   */
  constructor(
    private boardHost: HTMLElement,
    private palette: HTMLElement,
    private variant: Variant,
    fen: string,
    private onChange: (placement: string) => void,
    private onReset: (fen: string) => void,
  ) {
    this.build(fen);
    this.renderPalette();
  }

  /** The pieces of every board, with their board. */
  pieces(): Map<string, Piece> {
    const out = new Map<string, Piece>();
    this.cgs.forEach((cg, board) => {
      for (const [sq, p] of cg.state.pieces) out.set(sq, { role: p.role as Role, color: p.color as Color, board: board as BoardIndex });
    });
    return out;
  }

  placement(): string {
    return writePlacement(this.pieces());
  }

  /** Shows `fen` (any of its fields; only the placement is used), in `variant`. */
  load(variant: Variant, fen: string): void {
    this.variant = variant;
    this.build(fen);
  }

  destroy(): void {
    this.cgs.forEach(cg => cg.destroy());
    this.cgs = [];
  }

  /** Alice: a square holds one piece on one board, so placing on one board empties the other. */
  private place(board: number, key: Key, piece: CgPiece | undefined): void {
    this.cgs.forEach((cg, b) => {
      if (b === board) cg.setPieces(new Map([[key, piece]]));
      else if (piece) cg.setPieces(new Map([[key, undefined]]));
    });
    this.onChange(this.placement());
  }

  private build(fen: string): void {
    this.destroy();
    clear(this.boardHost);
    const wrap = el('div', { class: `boards variant-${this.variant}`, 'data-variant': this.variant });
    this.boardHost.appendChild(wrap);
    let pos;
    try {
      pos = parseFen(fen);
    } catch {
      pos = parseFen(EMPTY_FEN);
    }
    const n = twoBoards(this.variant) ? 2 : 1;
    for (let i = 0; i < n; i++) {
      const col = el('div', { class: 'board-col', 'data-col': i === 0 ? 'a' : 'b' });
      if (n === 2) col.appendChild(el('div', { class: 'board-label' }, i === 0 ? t('game.boardA') : t('game.boardB')));
      const bw = el('div', { class: 'board-wrap', 'data-board': i === 0 ? 'a' : 'b' });
      const cgEl = el('div', { class: i === 1 ? 'cg-board-b' : 'cg-board-a' });
      bw.appendChild(cgEl);
      col.appendChild(bw);
      wrap.appendChild(col);
      const board = i;
      const cg = Chessground(cgEl, {
        fen: boardPlacement(pos, i as BoardIndex),
        orientation: 'white',
        coordinates: true,
        animation: { enabled: false },
        highlight: { lastMove: false, check: false },
        movable: { free: true, color: 'both', showDests: false },
        draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
        premovable: { enabled: false },
        drawable: { enabled: false },
        events: {
          change: () => this.onChange(this.placement()),
          select: key => {
            const tool = this.tool;
            if (!tool) return;
            this.place(board, key, tool === 'erase' ? undefined : { role: tool.role, color: tool.color });
            // chessground selects the piece just placed once this event returns: unselect it then,
            // or the next tap would move it instead of placing another piece
            window.setTimeout(() => cg.selectSquare(null));
          },
        },
      });
      this.cgs.push(cg);
      // chessground keeps the board's screen position from its last resize: measured afresh at every touch
      const fresh = () => cg.state.dom.bounds.clear();
      bw.addEventListener('touchstart', fresh, { capture: true, passive: true });
      bw.addEventListener('mousedown', fresh, { capture: true, passive: true });
    }
  }

  private renderPalette(): void {
    clear(this.palette);
    const same = (a: Tool, b: Tool) =>
      a === b || (a !== null && a !== 'erase' && b !== null && b !== 'erase' && a.role === b.role && a.color === b.color);
    const toolButton = (label: string, value: Tool, content: Node) => {
      const active = same(value, this.tool);
      const b = el('button', { type: 'button', class: `tool${active ? ' active' : ''}`, title: label, 'aria-label': label, 'aria-pressed': String(active) }, content);
      b.addEventListener('click', () => {
        this.tool = active ? null : value;
        this.renderPalette();
      });
      return b;
    };
    const pieces = el('div', { class: 'cg-wrap palette-pieces' });
    for (const color of ['white', 'black'] as Color[]) {
      const row = el('div', { class: 'palette-row' });
      for (const role of ROLES)
        row.appendChild(toolButton(`${t(`color.${color}`)} ${t(`piece.${role}`)}`, { color, role }, el('piece', { class: `${color} ${role}` })));
      pieces.appendChild(row);
    }
    const tools = el('div', { class: 'controls' });
    tools.append(toolButton(t('problems.erase'), 'erase', document.createTextNode('⌫ ' + t('problems.erase'))));
    const reset = (action: string, label: string, fen: string) => {
      const b = el('button', { type: 'button', class: 'btn small', 'data-action': action }, label);
      b.addEventListener('click', () => this.onReset(fen));
      return b;
    };
    tools.append(reset('clear-board', t('problems.clear'), EMPTY_FEN), reset('start-position', t('analysis.reset'), INITIAL_FEN));
    this.palette.append(pieces, tools, el('p', { class: 'game-note' }, t('problems.paletteHelp')));
  }
}
