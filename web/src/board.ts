// The playing surface: one chessground board (chess, Avalanche) or two side by
// side (Alice), driven only by the FEN and the legal move list from the server.
// (Over 400 lines: the stages of a turn — pending choice, first part,
// promotion, push, premove — share one state; the Alice flight and the
// promotion dialog are in board-flight.ts and board-dialog.ts.)

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Config } from 'chessground/config';
import type { Key } from 'chessground/types';
import {
  BoardIndex,
  Color,
  Position,
  Role,
  Variant,
  boardPlacement,
  opposite,
  parseFen,
  pendingPromotionSquare,
} from './fen.js';
import {
  ParsedMove,
  Push,
  dests,
  findMove,
  matchingFirstPart,
  parseMove,
  parseMoves,
  pendingChoices,
  promotionsFor,
  pushesAfter,
  withChoice,
} from './moves.js';
import { t } from './i18n.js';
import { el } from './dom.js';
import { AliceFlight } from './board-flight.js';
import { promotionDialog } from './board-dialog.js';
import { hasPushes, twoBoards } from './games.js';

export interface BoardState {
  fen: string;
  /** Legal moves of the side to move, as the server sends them. */
  legal: readonly string[];
  /** Whether this user may move now (it is their seat's turn, game running). */
  canMove: boolean;
  /** The last move played (coordinate string), for highlight and animation. */
  lastMove?: string;
  /** The side to move is in check. */
  check?: boolean;
  /** This user's colour while the opponent is to move (allows premoves; chess and Alice). */
  premove?: Color;
}

/** A message the board asks its page to show in a fixed place (never in the board's own layout). */
export interface BoardPrompt {
  text: string;
  /** Offers a button that takes the unfinished move back. */
  cancel?: () => void;
}

export interface BoardOptions {
  orientation: Color;
  /** Called with the complete legal move string the user made. */
  onMove?: (move: string) => void;
  /**
   * Called when a prompt (push, premove…) opens or closes. The page shows it
   * in a place of fixed size, so that the board never moves under the finger;
   * without it the board shows the prompt over its own lower edge.
   */
  onPrompt?: (p: BoardPrompt | null) => void;
  viewOnly?: boolean;
  coordinates?: boolean;
  /** Alice: show "Board 1" / "Board 2" above the boards (default true). */
  labels?: boolean;
  /**
   * Alice on a narrow screen: the board not shown large goes into this
   * element as a live thumbnail (tap it to swap), when `compact()` says so.
   */
  aliceThumb?: HTMLElement;
  compact?: () => boolean;
}

const ROLE_OF: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
const ANIM_MS = 200;

interface Stage {
  /** Pending choice made at the start of the turn (Avalanche). */
  choice?: string;
  /** Moves still compatible with what the user did so far this turn. */
  moves: ParsedMove[];
}

/** Avalanche premove: a first part set during the opponent's turn, and optionally the pawn to push. */
interface AvalanchePremove {
  orig: string;
  dest: string;
  push?: string;
}

export class BoardView {
  readonly root: HTMLElement;
  private cgs: Api[] = [];
  private boardEls: HTMLElement[] = [];
  private cols: HTMLElement[] = [];
  /** Alice compact layout: the board shown large (the other one is the thumbnail). */
  private mainBoard: BoardIndex = 0;
  private compactNow = false;
  private avPremove: AvalanchePremove | null = null;
  private keepPremove = false;
  private flight = new AliceFlight(this.cgs, () => this.orientation);
  private pos: Position;
  private state: BoardState | null = null;
  private all: ParsedMove[] = [];
  private stage: Stage = { moves: [] };
  private overlay: HTMLElement | null = null;
  private orientation: Color;
  /** The move this user just sent: its state needs no animation. */
  private localMove: string | undefined;
  private lastPush: Push | undefined;

  constructor(
    host: HTMLElement,
    readonly variant: Variant,
    private opts: BoardOptions,
  ) {
    this.orientation = opts.orientation;
    this.pos = parseFen('8/8/8/8/8/8/8/8 w - - 0 1');
    this.root = el('div', { class: `boards variant-${variant}`, 'data-variant': variant });
    host.appendChild(this.root);
    const n = twoBoards(variant) ? 2 : 1;
    for (let i = 0; i < n; i++) {
      const wrap = el('div', { class: 'board-col', 'data-col': i === 0 ? 'a' : 'b' });
      this.cols.push(wrap);
      if (twoBoards(variant) && opts.labels !== false)
        wrap.appendChild(el('div', { class: 'board-label' }, i === 0 ? t('game.boardA') : t('game.boardB')));
      const boardWrap = el('div', { class: 'board-wrap', 'data-board': i === 0 ? 'a' : 'b' });
      const cgEl = el('div', { class: i === 1 ? 'cg-board-b' : 'cg-board-a' });
      boardWrap.appendChild(cgEl);
      wrap.appendChild(boardWrap);
      this.root.appendChild(wrap);
      this.boardEls.push(boardWrap);
      const board = i as BoardIndex;
      const config: Config = {
        // empty until the first state: chessground's default is the initial
        // position, and the first state would be animated from it (pieces
        // flying across a board not yet measured widened a phone's page)
        fen: '8/8/8/8/8/8/8/8',
        orientation: this.orientation,
        coordinates: opts.coordinates ?? true,
        viewOnly: !!opts.viewOnly,
        animation: { enabled: true, duration: ANIM_MS },
        highlight: { lastMove: true, check: true },
        movable: {
          free: false,
          color: undefined,
          showDests: true,
          events: { after: (o, d) => this.onUserMove(board, o, d) },
        },
        premovable: {
          enabled: false,
          events: {
            set: (o, d) => this.onPremoveSet(o, d),
            unset: () => this.onPremoveUnset(),
          },
        },
        draggable: { showGhost: true },
        events: { select: k => this.onSelect(board, k) },
        drawable: { enabled: true },
      };
      const cg = Chessground(cgEl, config);
      this.cgs.push(cg);
      // chessground keeps the board's screen position from its last scroll or
      // resize; a layout change elsewhere on the page would leave it stale and
      // a tap would land on the wrong square. Measured afresh at every touch.
      const fresh = () => cg.state.dom.bounds.clear();
      boardWrap.addEventListener('touchstart', fresh, { capture: true, passive: true });
      boardWrap.addEventListener('mousedown', fresh, { capture: true, passive: true });
    }
    this.layout();
  }

  /** Alice: one board large and the other as a thumbnail on narrow screens, else side by side. */
  layout(): void {
    if (!twoBoards(this.variant)) return;
    const thumbHost = this.opts.aliceThumb;
    const compact = !!thumbHost && !!this.opts.compact?.();
    if (compact === this.compactNow && (!compact || this.cols[this.mainBoard].parentElement === this.root)) return;
    this.compactNow = compact;
    this.root.classList.toggle('alice-compact', compact);
    // one board large and the other small: each says which it is, in a few words
    this.cols.forEach((c, i) => {
      const label = c.querySelector('.board-label');
      if (label) label.textContent = compact ? t('game.boardShort', { n: i + 1 }) : i === 0 ? t('game.boardA') : t('game.boardB');
    });
    thumbHost?.classList.toggle('alice-thumb-host', compact);
    for (const c of this.cols) c.querySelector('.thumb-swap')?.remove();
    if (!compact) {
      this.cols.forEach(c => {
        c.classList.remove('thumb', 'main');
        this.root.appendChild(c);
      });
      if (thumbHost) thumbHost.hidden = true;
    } else {
      const main = this.cols[this.mainBoard];
      const thumb = this.cols[1 - this.mainBoard];
      main.classList.add('main');
      main.classList.remove('thumb');
      thumb.classList.add('thumb');
      thumb.classList.remove('main');
      this.root.appendChild(main);
      thumbHost!.hidden = false;
      thumbHost!.appendChild(thumb);
      const other = (1 - this.mainBoard) as BoardIndex;
      const label = t('game.showBoard', { n: other + 1 });
      const swap = el('button', { type: 'button', class: 'thumb-swap', 'aria-label': label, title: label, 'data-action': 'swap-boards' });
      swap.addEventListener('click', () => this.showLarge(other));
      thumb.appendChild(swap);
    }
    this.redraw();
  }

  /** Alice compact layout: which board is large. */
  showLarge(board: BoardIndex): void {
    if (this.mainBoard === board) return;
    this.mainBoard = board;
    this.compactNow = !this.compactNow; // force the re-layout
    this.layout();
  }

  /**
   * Alice compact layout: shows large the board on which the piece standing on
   * `square` is (the end of a game: where its last move landed).
   */
  showLargeAt(square: string): void {
    const p = this.pos.pieces.get(square);
    if (p && this.compactNow) this.showLarge(p.board);
  }

  largeBoard(): BoardIndex {
    return this.mainBoard;
  }

  /** Tells chessground that its container may have changed size or place. */
  redraw(): void {
    for (const cg of this.cgs) {
      cg.state.dom.bounds.clear();
      cg.redrawAll();
    }
  }

  /** The position currently shown (from the last state). */
  position(): Position {
    return this.pos;
  }

  legalMoves(): ParsedMove[] {
    return this.all;
  }

  /** Avalanche: the pending-promotion piece chosen this turn (q r b n), if any. */
  stageChoice(): string | undefined {
    return this.stage.choice;
  }

  getOrientation(): Color {
    return this.orientation;
  }

  setOrientation(c: Color): void {
    if (c === this.orientation) return;
    this.orientation = c;
    for (const cg of this.cgs) cg.set({ orientation: c });
  }

  flip(): void {
    this.setOrientation(opposite(this.orientation));
  }

  /** Arrows drawn by the program (rules diagrams, engine's best move). */
  setArrows(arrows: { orig: string; dest: string; brush: string }[], board: BoardIndex = 0): void {
    this.cgs[board]?.setAutoShapes(arrows.map(a => ({ orig: a.orig as Key, dest: a.dest as Key, brush: a.brush })));
  }

  destroy(): void {
    for (const cg of this.cgs) cg.destroy();
    // an Alice thumbnail lives outside the root
    for (const c of this.cols) c.remove();
    this.opts.aliceThumb?.classList.remove('alice-thumb-host');
    this.root.remove();
  }

  /** Shows a new state from the server; animates the change from the position shown. */
  update(state: BoardState, force = false): void {
    const prevPos = this.pos;
    const prevState = this.state;
    if (
      !force &&
      prevState &&
      prevState.fen === state.fen &&
      prevState.canMove === state.canMove &&
      prevState.lastMove === state.lastMove &&
      prevState.legal.join(' ') === state.legal.join(' ')
    ) {
      // nothing changed on the board (an offer, a connection…): keep what the user is doing
      this.state = state;
      return;
    }
    // A piece the player picked up stays picked up when the opponent's move
    // arrives between the two taps, if it is still on its square (not while
    // choosing an Avalanche push, whose selection is the enemy pawn's).
    const picked = force || this.pushing ? [] : this.cgs.map(cg => cg.state.selected);
    const pieceOn = (i: number, k: Key | undefined) => (k ? this.cgs[i].state.pieces.get(k) : undefined);
    const before = picked.map((k, i) => pieceOn(i, k));
    this.pushing = null;
    this.root.classList.remove('push-stage');
    this.prompt(null);
    this.closeOverlay();
    this.state = state;
    this.pos = parseFen(state.fen);
    this.all = state.canMove ? parseMoves(state.legal) : [];
    this.stage = { moves: this.all };
    const last = state.lastMove ? safeParse(state.lastMove) : undefined;
    const lastKeys = last ? ([last.from, last.to] as Key[]) : undefined;

    if (force) this.cgs.forEach(cg => cg.cancelMove());
    const shownSame = this.cgs.every((cg, i) => samePlacement(cg.getFen(), boardPlacement(this.pos, i as BoardIndex)));
    const moved = !shownSame && prevState !== null && last !== undefined && state.lastMove !== this.localMove;
    this.localMove = undefined;
    this.lastPush = last?.push;
    this.applyFull(lastKeys);
    picked.forEach((k, i) => {
      const was = before[i];
      const now = pieceOn(i, k);
      if (k && was && now && was.role === now.role && was.color === now.color) this.cgs[i].selectSquare(k, true);
    });
    if (twoBoards(this.variant) && moved && last) this.flight.animate(prevPos, this.pos, last);
  }

  private applyFull(lastKeys: Key[] | undefined): void {
    const state = this.state;
    if (!state) return;
    this.cgs.forEach((cg, i) => {
      cg.selectSquare(null);
      cg.set({
        fen: boardPlacement(this.pos, i as BoardIndex),
        turnColor: this.pos.turn,
        lastMove: lastKeys,
        check: !!state.check && this.kingOn(i as BoardIndex, this.pos.turn),
        highlight: { custom: this.pushHighlight() },
      });
    });
    this.startTurn();
  }

  /** Avalanche: the last push is highlighted beside the last move. */
  private pushHighlight(): Map<Key, string> {
    const m = new Map<Key, string>();
    if (this.lastPush) {
      m.set(this.lastPush.from as Key, 'last-push');
      m.set(this.lastPush.to as Key, 'last-push');
    }
    return m;
  }

  private kingOn(board: BoardIndex, color: Color): boolean {
    for (const p of this.pos.pieces.values()) if (p.role === 'king' && p.color === color) return p.board === board;
    return false;
  }

  /** Sets up the movable pieces for the side to move, after any pending choice. */
  private startTurn(): void {
    if (!this.state?.canMove || this.opts.viewOnly) {
      this.setMovable(undefined, this.opts.viewOnly ? undefined : this.state?.premove);
      if (this.avPremove) {
        this.showAvPremove();
        this.prompt(t('game.premovePush'), true);
      }
      return;
    }
    const choices = pendingChoices(this.all);
    if (hasPushes(this.variant) && choices.length > 0) {
      this.setMovable(undefined);
      const sq = pendingPromotionSquare(this.pos) ?? this.all.find(m => m.choice)!.from;
      this.askPromotion(sq, choices, t('game.choosePending'), c => {
        this.stage = { choice: c, moves: withChoice(this.all, c) };
        const color = this.pos.turn;
        this.cgs[0].setPieces(new Map([[sq as Key, { role: ROLE_OF[c], color, promoted: true }]]));
        this.setMovable(this.stage.moves);
      }, undefined);
      return;
    }
    this.stage = { moves: hasPushes(this.variant) ? withChoice(this.all, undefined) : this.all };
    this.setMovable(this.stage.moves);
    if (hasPushes(this.variant)) {
      const av = this.avPremove;
      this.avPremove = null;
      this.cgs.forEach(cg => cg.cancelPremove());
      if (av && matchingFirstPart(this.stage.moves, av.orig, av.dest).length + promotionsFor(this.stage.moves, av.orig, av.dest).length > 0) {
        this.prompt(null);
        this.cgs[0].move(av.orig as Key, av.dest as Key);
        this.pendingPush = av.push;
        this.onUserMove(0, av.orig as Key, av.dest as Key);
      } else if (av) this.prompt(null);
      return;
    }
    // a premove set during the opponent's turn is played now if it is legal
    for (const cg of this.cgs) if (cg.playPremove()) break;
    this.cgs.forEach(cg => cg.cancelPremove());
  }

  /** Avalanche premove: the pawn to push once the first part is played. */
  private pendingPush: string | undefined;

  private setMovable(moves: ParsedMove[] | undefined, premove?: Color): void {
    const premoves = !!premove;
    this.cgs.forEach((cg, i) => {
      const d = moves
        ? twoBoards(this.variant)
          ? dests(moves, this.pos, i as BoardIndex)
          : dests(moves)
        : undefined;
      cg.set({
        turnColor: this.pos.turn,
        movable: {
          color: moves ? this.pos.turn : premoves ? premove : undefined,
          dests: (d ?? new Map()) as Map<Key, Key[]>,
        },
        premovable: { enabled: premoves },
      });
      if (!moves && !premoves) cg.cancelPremove();
    });
    if (!moves && !premoves) this.clearAvPremove();
  }

  // -------------------------------------------------------------------------
  // Avalanche premoves: the first part is chessground's premove; a tap on an
  // enemy pawn then names the push. Played when the turn comes if still legal.

  private onPremoveSet(orig: Key, dest: Key): void {
    if (!hasPushes(this.variant)) return;
    this.avPremove = { orig, dest };
    this.showAvPremove();
    this.prompt(t('game.premovePush'), true);
  }

  private onPremoveUnset(): void {
    if (!hasPushes(this.variant)) return;
    if (this.keepPremove) {
      this.keepPremove = false;
      this.showAvPremove();
      return;
    }
    // chessground dropped its premove (a tap elsewhere): ours goes too
    if (this.avPremove && !this.state?.canMove) this.clearAvPremove();
  }

  private showAvPremove(): void {
    const custom = this.pushHighlight();
    const p = this.avPremove;
    if (p) {
      custom.set(p.orig as Key, 'current-premove');
      custom.set(p.dest as Key, 'current-premove');
      if (p.push) custom.set(p.push as Key, 'premove-push');
    }
    this.cgs[0].set({ highlight: { custom } });
  }

  private clearAvPremove(): void {
    if (!this.avPremove) return;
    this.avPremove = null;
    this.keepPremove = false;
    this.prompt(null);
    this.cgs[0]?.set({ highlight: { custom: this.pushHighlight() } });
  }


  /** A move made by dragging or clicking on the board. */
  private onUserMove(board: BoardIndex, from: Key, to: Key): void {
    if (this.pushing) {
      this.finishPush({ from, to });
      return;
    }
    const moves = this.stage.moves;
    const promos = promotionsFor(moves, from, to);
    if (promos.length > 0) {
      this.askPromotion(to, promos, t('game.choosePromotion'), p => {
        const color = this.pos.turn;
        this.cgs[board].setPieces(new Map([[to, { role: ROLE_OF[p], color, promoted: true }]]));
        this.afterFirstPart(board, from, to, p);
      }, () => this.cancelTurn());
      return;
    }
    this.afterFirstPart(board, from, to, undefined);
  }

  private pushing: { candidates: ParsedMove[]; pushes: Push[]; from: string; to: string; board: BoardIndex } | null =
    null;

  private afterFirstPart(board: BoardIndex, from: string, to: string, promotion: string | undefined): void {
    const candidates = matchingFirstPart(this.stage.moves, from, to, promotion);
    if (candidates.length === 0) {
      this.cancelTurn();
      return;
    }
    if (twoBoards(this.variant)) {
      this.flight.flyLocal(this.pos, board, from, to);
      this.send(candidates[0]);
      return;
    }
    if (!hasPushes(this.variant)) {
      this.send(candidates[0]);
      return;
    }
    const pushes = pushesAfter(candidates);
    if (pushes.length === 0) {
      // No enemy pawn can move: the first part alone is the move.
      this.send(findMove(candidates) ?? candidates[0]);
      return;
    }
    this.pushing = { candidates, pushes, from, to, board };
    const wanted = this.pendingPush;
    this.pendingPush = undefined;
    const pre = wanted ? pushes.find(p => p.from === wanted) : undefined;
    if (pre) {
      this.cgs[0].move(pre.from as Key, pre.to as Key);
      this.finishPush(pre);
      return;
    }
    const enemy = opposite(this.pos.turn);
    const custom = new Map<Key, string>();
    const d = new Map<Key, Key[]>();
    for (const p of pushes) {
      custom.set(p.from as Key, 'pushable');
      const list = d.get(p.from as Key) ?? [];
      list.push(p.to as Key);
      d.set(p.from as Key, list);
    }
    const cg = this.cgs[0];
    cg.set({
      turnColor: enemy,
      movable: { color: enemy, dests: d },
      highlight: { custom },
    });
    this.root.classList.add('push-stage');
    this.prompt(t('game.choosePush'), true);
  }

  private onSelect(_board: BoardIndex, key: Key): void {
    if (!this.pushing) {
      // Avalanche premove: a tap on an enemy pawn names the push
      const p = this.avPremove;
      const piece = this.pos.pieces.get(key);
      if (p && !this.state?.canMove && piece?.role === 'pawn' && piece.color === this.pos.turn) {
        p.push = p.push === key ? undefined : key;
        this.keepPremove = true;
        this.showAvPremove();
      }
      return;
    }
    const push = this.pushing.pushes.find(p => p.from === key);
    if (push) {
      // one click on a pushable pawn pushes it
      this.cgs[0].move(push.from as Key, push.to as Key);
      this.cgs[0].selectSquare(null);
      this.finishPush(push);
    }
  }

  private finishPush(push: Push): void {
    const p = this.pushing;
    if (!p) return;
    const m = findMove(p.candidates, push);
    if (!m) return;
    this.pushing = null;
    this.root.classList.remove('push-stage');
    this.cgs[0].set({ highlight: { custom: this.pushHighlight() }, movable: { color: undefined, dests: new Map() } });
    this.prompt(null);
    this.send(m);
  }

  /** Puts the board back as the server has it (an unfinished or unconfirmed move is taken back). */
  cancelTurn(): void {
    this.pendingPush = undefined;
    this.pushing = null;
    this.root.classList.remove('push-stage');
    this.prompt(null);
    this.closeOverlay();
    this.cgs.forEach((cg, i) =>
      cg.set({
        fen: boardPlacement(this.pos, i as BoardIndex),
        highlight: { custom: this.pushHighlight() },
      }),
    );
    this.startTurn();
  }

  /** Sends a move; `shown` when the board already shows it (played with the mouse). */
  private send(m: ParsedMove, shown = true): void {
    this.localMove = shown ? m.raw : undefined;
    this.setMovable(undefined);
    this.prompt(null);
    this.opts.onMove?.(m.raw);
  }

  /** Plays a move given from the keyboard (already matched against the legal list). */
  playKeyboard(m: ParsedMove): void {
    if (!this.state?.canMove) return;
    this.closeOverlay();
    this.pushing = null;
    this.root.classList.remove('push-stage');
    this.send(m, false);
  }

  /**
   * Avalanche from the keyboard: the first part alone was typed (`Nf3`): it is
   * played on the board, then the push is chosen as after a move by hand.
   */
  playFirstPart(candidates: ParsedMove[]): void {
    if (!this.state?.canMove || candidates.length === 0) return;
    const m = candidates[0];
    if (m.choice && this.stage.choice !== m.choice) {
      this.closeOverlay();
      this.stage = { choice: m.choice, moves: withChoice(this.all, m.choice) };
    }
    this.cgs[0].move(m.from as Key, m.to as Key);
    if (m.promotion)
      this.cgs[0].setPieces(new Map([[m.to as Key, { role: ROLE_OF[m.promotion], color: this.pos.turn, promoted: true }]]));
    this.afterFirstPart(0, m.from, m.to, m.promotion);
  }

  /** Escape: takes back a first part waiting for its push, or closes the promotion dialog. */
  cancel(): void {
    if (this.pushing) this.cancelTurn();
    else this.overlay?.querySelector<HTMLButtonElement>('button.btn')?.click();
  }

  // -------------------------------------------------------------------------
  // prompts and dialogs

  private prompt(text: string | null, withCancel = false): void {
    const cancel = withCancel
      ? () => {
          if (this.avPremove && !this.state?.canMove) {
            this.cgs.forEach(cg => cg.cancelPremove());
            this.clearAvPremove();
          } else this.cancelTurn();
        }
      : undefined;
    if (this.opts.onPrompt) {
      this.opts.onPrompt(text ? { text, cancel } : null);
      return;
    }
    this.root.querySelector('.board-prompt')?.remove();
    if (!text) return;
    const box = el('div', { class: 'board-prompt', role: 'status' }, text);
    if (cancel) {
      const b = el('button', { class: 'btn small', type: 'button', 'data-action': 'cancel-move' }, t('game.cancel'));
      b.addEventListener('click', cancel);
      box.appendChild(b);
    }
    this.boardEls[0].appendChild(box);
  }

  private closeOverlay(): void {
    this.overlay?.remove();
    this.overlay = null;
  }

  /** A dialog over the board offering Q R B N (own promotion or pending Avalanche choice). */
  private askPromotion(
    square: string,
    letters: string[],
    title: string,
    done: (letter: string) => void,
    cancel: (() => void) | undefined,
  ): void {
    this.closeOverlay();
    const boardIdx = twoBoards(this.variant) ? (this.pos.pieces.get(square)?.board ?? 0) : 0;
    const host = this.boardEls[boardIdx] ?? this.boardEls[0];
    this.overlay = promotionDialog(host, this.pos.turn, square, letters, title, l => {
      this.closeOverlay();
      done(l);
    }, cancel && (() => {
      this.closeOverlay();
      cancel();
    }));
  }
}

function safeParse(s: string): ParsedMove | undefined {
  try {
    return parseMove(s);
  } catch {
    return undefined;
  }
}

function samePlacement(a: string, b: string): boolean {
  return a.replace(/~/g, '') === b;
}

