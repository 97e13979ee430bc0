// The game page: live play, spectating, and the finished-game viewer.
// (Over 400 lines: one page with one state; its pure renderers are in game-parts.ts.)
//
// Layout rule: nothing above or beside the board changes size while a move is
// being made. Prompts (push, premove, confirmation, history) go in the fixed
// slot under the board; the connection banner sits over the header.

import { ChatPanel, isChatError } from '../chat.js';
import { ApiError, GameState, api, ws } from '../api.js';
import { BoardPrompt, BoardView } from '../board.js';
import { clear, el, svgIcon } from '../dom.js';
import { Color, Variant, opposite, parseFen, pendingPromotionSquare } from '../fen.js';
import { formatClock, formatDays, formatTime, playerName, remaining } from '../format.js';
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import { moveInputBox, playTyped } from '../typed-move.js';
import { navigate } from '../router.js';
import { isFlipped, onSettings, setFlipped, settings } from '../settings.js';
import { moveSound, play } from '../sound.js';
import { openRulesDialog } from './rules.js';
import { claimControls, clocksAt, renderLastMoves, renderMoveList, renderPlayer, renderResult, showSan, takebackControls } from './game-parts.js';
import { decoratePlayer, decorateResult } from './game-rating.js';
import { berserkButton, decorateBerserk, mayBerserk, renderTournamentLink } from './game-tournament.js';
import { attachResizeHandle } from './resize.js';
import { GameReviewPanel } from './game-review.js';
import type { ErrorMessage } from '../protocol.js';
import { hasPushes, twoBoards, variantKey } from '../games.js';

export function gamePage(root: HTMLElement, id: string): () => void {
  const page = new GamePage(root, id);
  return () => page.destroy();
}

const NARROW = '(max-width: 759px)';

interface Els {
  boardHost: HTMLElement;
  slot: HTMLElement;
  banner: HTMLElement;
  status: HTMLElement;
  moves: HTMLElement;
  controls: HTMLElement;
  top: HTMLElement;
  bottom: HTMLElement;
  barTop: HTMLElement;
  barBottom: HTMLElement;
  nav: HTMLElement;
  input: HTMLInputElement;
  inputMsg: HTMLElement;
  conn: HTMLElement;
  exportBox: HTMLElement;
  thumb: HTMLElement;
  lastMoves: HTMLElement;
  side: HTMLElement;
  /** Phones: the result and the next actions, right under the board once the game is over. */
  endBox: HTMLElement;
  /** A tournament's game: the link back to it. */
  tournament: HTMLElement;
}

class GamePage {
  private state: GameState | null = null;
  private receivedAt = 0;
  private board: BoardView | null = null;
  private variant: Variant | null = null;
  /** Ply shown; null follows the live position. */
  private viewPly: number | null = null;
  private orientation: Color | null = null;
  private unsub: (() => void)[] = [];
  private tick: number | undefined;
  private confirmResign = false;
  private claimTimer: number | undefined;
  private boardPrompt: BoardPrompt | null = null;
  /** A move made on the board that waits for the player's confirmation (correspondence). */
  private unconfirmed: string | null = null;
  private lowTimeSounded = false;
  /** The board of the game's last move was brought up large once (Alice on a phone). */
  private endShownLarge = false;
  private media = window.matchMedia(NARROW);
  private els!: Els;
  private chat: ChatPanel;
  private review: GameReviewPanel | null = null;

  constructor(
    private root: HTMLElement,
    private id: string,
  ) {
    clear(root);
    root.appendChild(el('div', { class: 'loading' }, t('game.loading')));
    const s = ws();
    this.chat = new ChatPanel(id, s); // before joining: it gets the room's history
    this.unsub.push(
      s.on('state', m => {
        if (m.game === id) this.onState(m);
      }),
      s.on('review', m => this.review?.onMessage(m)),
      s.on('error', m => {
        if ((m.game === id || m.game === undefined) && !isChatError(m)) this.onError(m);
      }),
      s.onStatus(up => this.onConnection(up)),
      onSettings(() => {
        if (this.state) this.render();
      }),
    );
    const onMedia = () => {
      this.board?.layout();
      if (this.state) this.render();
    };
    this.media.addEventListener('change', onMedia);
    this.unsub.push(() => this.media.removeEventListener('change', onMedia));
    s.join(id);
    // HTTP as well: shows 404 for an unknown game even if the socket is slow.
    api.game(id).then(
      st => {
        if (!this.state) this.onState(st);
      },
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 404) {
          clear(root);
          root.appendChild(
            el('div', { class: 'panel not-found' }, el('p', {}, t('game.notFound')), el('a', { href: '/', 'data-link': '' }, t('game.backToLobby'))),
          );
        }
      },
    );
    this.tick = window.setInterval(() => this.renderClocks(), 100);
    document.addEventListener('keydown', this.onKey);
  }

  destroy(): void {
    document.title = t('app.title');
    ws().leave(this.id);
    this.unsub.forEach(f => f());
    window.clearInterval(this.tick);
    window.clearTimeout(this.claimTimer);
    document.removeEventListener('keydown', this.onKey);
    this.board?.destroy();
    this.chat.destroy();
  }

  private build(st: GameState): void {
    clear(this.root);
    this.variant = st.variant;
    const boardHost = el('div', { class: 'game-board' });
    const slot = el('div', { class: 'prompt-slot', 'aria-live': 'polite', 'data-slot': '' });
    const input = moveInputBox({ enterkeyhint: 'send' });
    const inputMsg = el('div', { class: 'input-msg', 'aria-live': 'polite' });
    input.addEventListener('keydown', e => {
      if (e.key === 'Enter') this.onInput(input.value);
      e.stopPropagation();
    });
    const side = el('aside', { class: 'game-side' });
    const top = el('div', { class: 'player top' });
    const bottom = el('div', { class: 'player bottom' });
    const banner = el('div', { class: 'result-banner', hidden: '' });
    const status = el('div', { class: 'game-status', 'aria-live': 'polite' });
    const moves = el('div', { class: 'move-list', role: 'list', 'aria-label': t('game.moves') });
    const nav = el('div', { class: 'move-nav' });
    const controls = el('div', { class: 'controls' });
    const conn = el('div', { class: 'conn-status', hidden: '', role: 'status' });
    const exportBox = el('div', { class: 'export' });
    const rules = el('button', { type: 'button', class: 'btn small rules-link', 'data-action': 'rules' }, t('nav.rules'));
    rules.addEventListener('click', () => openRulesDialog(st.variant));
    const info = el(
      'div',
      { class: 'game-info' },
      el('span', { class: 'variant-name' }, t(variantKey(st.variant))),
      el('span', { class: 'tc' }, formatTime(st.time)),
      rules,
    );
    const tournament = el('div', { class: 'game-tournament', hidden: '' });
    side.append(info, tournament, top, banner, status, moves, nav, controls, bottom, el('div', { class: 'san-row' }, input, inputMsg), exportBox, this.chat.element);
    const barTop = el('div', { class: 'player-bar top' });
    const barBottom = el('div', { class: 'player-bar bottom' });
    const thumb = el('div', { class: 'alice-thumb', hidden: '' });
    const lastMoves = el('div', { class: 'last-moves', 'aria-hidden': 'true' });
    const reviewHost = el('section', { class: 'game-review' });
    this.review = new GameReviewPanel(reviewHost, st.game, p => this.go(p), () => this.board, () => this.state);
    const endBox = el('div', { class: 'end-box', hidden: '' });
    const main = el('div', { class: 'game-main' }, barTop, boardHost, barBottom, slot, endBox, reviewHost);
    if (twoBoards(st.variant)) main.appendChild(el('div', { class: 'alice-row' }, thumb, lastMoves));
    this.root.append(conn, el('div', { class: `game-page variant-${st.variant}` }, main, side));
    this.els = { boardHost, slot, banner, status, moves, controls, top, bottom, barTop, barBottom, nav, input, inputMsg, conn, exportBox, thumb, lastMoves, side, endBox, tournament };
    const mine: Color = st.you === 'black' ? 'black' : 'white';
    this.orientation = this.orientation ?? (isFlipped(this.id) ? opposite(mine) : mine);
    this.board = new BoardView(boardHost, st.variant, {
      orientation: this.orientation,
      onMove: m => this.onBoardMove(m),
      onPrompt: p => {
        this.boardPrompt = p;
        this.renderSlot();
      },
      aliceThumb: thumb,
      compact: () => this.media.matches,
    });
    attachResizeHandle(boardHost, () => this.board?.redraw());
  }

  private onState(st: GameState): void {
    const prev = this.state;
    // The socket's states come in order (the HTTP answer is used only before
    // the first one): a smaller ply is a takeback, shown as is.
    this.state = st;
    // the running clock was read at server_time: count the message's transit too
    // (server clock estimated from the socket's pings; bounded against bad estimates)
    const lag = st.clock ? Math.min(2000, Math.max(0, ws().serverNow() - st.clock.server_time)) : 0;
    this.receivedAt = performance.now() - lag;
    if (!this.board || this.variant !== st.variant) this.build(st);
    if (prev && prev.you === null && st.you && this.orientation !== st.you) {
      this.orientation = st.you;
      this.board!.setOrientation(st.you);
    }
    if (this.viewPly !== null && this.viewPly >= st.ply) this.viewPly = null;
    if (prev && prev.game === st.game && st.ply !== prev.ply) this.unconfirmed = null;
    if (prev && prev.game === st.game) {
      if (st.status === 'over' && prev.status === 'live') play('end');
      else if (st.ply > prev.ply) play(moveSound(st.moves[st.ply - 1]?.san ?? ''));
    }
    this.renderBoard();
    // Alice on a phone: the end of the game is shown on the board where its last move landed
    if (st.status === 'over' && !this.endShownLarge && this.board && this.viewPly === null) {
      this.endShownLarge = true;
      const last = st.moves[st.ply - 1]?.uci;
      if (last && twoBoards(st.variant)) this.board.showLargeAt(last.slice(2, 4));
    }
    this.render();
    if (st.rematch_game && st.you && prev && !prev.rematch_game) {
      navigate(`/game/${st.rematch_game}`);
    }
  }

  private onError(m: ErrorMessage): void {
    if (!this.state) return;
    this.els.inputMsg.textContent = errorText(m);
    this.els.inputMsg.classList.add('error');
    this.unconfirmed = null;
    // put the board back as the server has it
    this.renderBoard(true);
    this.renderSlot();
  }

  private onConnection(up: boolean): void {
    if (!this.els) return;
    this.els.conn.hidden = up;
    this.els.conn.textContent = up ? t('game.connection.back') : t('game.connection.lost');
    this.els.conn.classList.toggle('down', !up);
  }

  private sanOf(move: string): string {
    const st = this.state;
    const i = st ? st.legal_moves.indexOf(move) : -1;
    return st && i >= 0 && st.legal_san?.[i] ? st.legal_san[i] : move;
  }

  /** A move made on the board or typed: sent, or held for confirmation in correspondence games. */
  private onBoardMove(move: string): void {
    const st = this.state;
    if (!st) return;
    if (st.time.kind === 'correspondence' && settings().confirmCorrespondence) {
      this.unconfirmed = move;
      this.renderSlot();
      return;
    }
    this.sendMove(move);
  }

  private sendMove(move: string): void {
    const st = this.state;
    if (!st) return;
    this.unconfirmed = null;
    this.els.inputMsg.textContent = '';
    this.els.inputMsg.classList.remove('error');
    ws().send({ type: 'move', game: st.game, move, ply: st.ply });
    this.renderSlot();
  }

  private onInput(text: string): void {
    const st = this.state;
    if (!st || !this.board) return;
    const msg = this.els.inputMsg;
    msg.classList.remove('error');
    if (!this.canMove()) return;
    // cleared before the move is played (which may redraw the page), given back when it is wrong
    const input = this.els.input;
    const typed = input.value;
    msg.textContent = '';
    input.value = '';
    const wrong = playTyped(this.board, text, st.legal_moves, st.legal_san);
    if (!wrong) return;
    input.value = typed;
    msg.textContent = t(wrong, { move: text });
    msg.classList.add('error');
  }

  private onKey = (e: KeyboardEvent): void => {
    const tag = (e.target as HTMLElement)?.tagName;
    if (!this.state || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || document.querySelector('dialog[open]')) return;
    if (e.key === 'ArrowLeft') this.go(this.shownPly() - 1);
    else if (e.key === 'ArrowRight') this.go(this.shownPly() + 1);
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.state.ply);
    else if (e.key === 'f') this.flip();
    else if (e.key === 'Escape') this.board?.cancel();
    else return;
    e.preventDefault();
  };

  private flip(): void {
    this.board?.flip();
    this.orientation = this.board?.getOrientation() ?? this.orientation;
    const mine: Color = this.state?.you === 'black' ? 'black' : 'white';
    setFlipped(this.id, this.orientation !== mine);
    this.render();
  }

  private shownPly(): number {
    return this.viewPly ?? this.state?.ply ?? 0;
  }

  private hasHistory(): boolean {
    const st = this.state;
    return !!st && st.moves.every(m => typeof m.fen === 'string');
  }

  private go(ply: number): void {
    const st = this.state;
    if (!st || !this.hasHistory()) return;
    const p = Math.max(0, Math.min(st.ply, ply));
    this.viewPly = p === st.ply ? null : p;
    this.renderBoard();
    this.render();
  }

  private canMove(): boolean {
    const st = this.state;
    return !!st && st.status === 'live' && st.you === st.turn && this.viewPly === null;
  }

  private renderBoard(force = false): void {
    const st = this.state;
    if (!st || !this.board) return;
    const ply = this.shownPly();
    if (this.viewPly === null) {
      this.board.update(
        {
          fen: st.fen,
          legal: st.legal_moves,
          canMove: this.canMove(),
          lastMove: st.moves[st.ply - 1]?.uci,
          check: st.check,
          premove: st.status === 'live' && st.you && st.you !== st.turn ? st.you : undefined,
        },
        force,
      );
    } else {
      const entry = st.moves[ply - 1];
      this.board.update({
        fen: ply === 0 ? st.initial_fen : entry!.fen!,
        legal: [],
        canMove: false,
        lastMove: entry?.uci,
        check: !!entry?.check,
      });
    }
  }

  private shownFen(): string {
    const st = this.state!;
    const ply = this.shownPly();
    return this.viewPly === null ? st.fen : ply === 0 ? st.initial_fen : (st.moves[ply - 1].fen ?? st.fen);
  }

  private render(): void {
    const st = this.state;
    if (!st) return;
    const e = this.els;
    const bottomColor: Color = this.orientation ?? 'white';
    let pos = null;
    try {
      pos = parseFen(this.shownFen());
    } catch {
      pos = null;
    }
    for (const [box, color] of [
      [e.top, opposite(bottomColor)],
      [e.bottom, bottomColor],
      [e.barTop, opposite(bottomColor)],
      [e.barBottom, bottomColor],
    ] as [HTMLElement, Color][]) {
      renderPlayer(box, st, color, pos);
      decoratePlayer(box, st, color);
      decorateBerserk(box, st, color);
    }
    this.renderClocks();
    renderResult(e.banner, st);
    decorateResult(e.banner, st);
    renderTournamentLink(e.tournament, st);
    this.chat.setSeatNames({ white: playerName(st.players.white), black: playerName(st.players.black) });

    e.status.textContent = this.statusText();
    // the tab's title tells whose turn it is, as on lichess
    const title = `${t(variantKey(st.variant))} · ${playerName(st.players.white)} – ${playerName(st.players.black)}`;
    document.title = st.status === 'live' && st.you === st.turn ? `● ${t('game.yourTurn')} · ${title}` : title;
    e.status.hidden = !e.status.textContent;
    e.status.dataset.turn = st.turn;

    renderMoveList(e.moves, st, this.shownPly(), p => this.go(p));
    this.review?.update(st.status === 'over' && this.hasHistory(), this.shownPly(), this.shownFen(), e.moves);
    renderLastMoves(e.lastMoves, st);
    this.renderNav();
    this.renderControls();
    this.renderExport();
    this.renderSlot();
    e.input.disabled = !this.canMove();
    e.input.hidden = st.status !== 'live' || st.you === null;
  }

  private statusText(): string {
    const st = this.state!;
    if (st.status !== 'live') return '';
    // Avalanche: a pawn pushed to its last rank, its owner chooses its piece
    let pending: string | undefined;
    if (hasPushes(st.variant) && st.legal_moves.some(m => m.includes(':'))) {
      try {
        pending = pendingPromotionSquare(parseFen(st.fen)) ?? st.legal_moves.find(m => m.includes(':'))?.slice(2, 4);
      } catch {
        pending = undefined;
      }
    }
    if (st.you === null) {
      if (pending) return t('game.pendingOther', { color: t(`color.${st.turn}`), square: pending });
      return t('game.toMove', { color: t(`color.${st.turn}`) });
    }
    if (st.you === st.turn) return t('game.yourTurn');
    if (pending) return t('game.pendingOpponent', { square: pending });
    return t('game.waitingOpponent');
  }

  /** The fixed place under the board: a board prompt, a confirmation, the history notice, or nothing. */
  private renderSlot(): void {
    const st = this.state;
    const slot = this.els?.slot;
    if (!st || !slot) return;
    clear(slot);
    slot.className = 'prompt-slot';
    const btn = (label: string, action: string, f: () => void, cls = '') => {
      const b = el('button', { type: 'button', class: `btn small ${cls}`, 'data-action': action }, label);
      b.addEventListener('click', f);
      return b;
    };
    if (this.unconfirmed) {
      const mover = st.turn;
      slot.classList.add('active');
      slot.append(
        el('span', { class: 'slot-text' }, t('game.confirmMove', { move: showSan(this.sanOf(this.unconfirmed), mover) })),
        btn(t('game.confirm'), 'confirm-move', () => this.unconfirmed && this.sendMove(this.unconfirmed), 'primary'),
        btn(t('game.cancel'), 'cancel-move', () => {
          this.unconfirmed = null;
          this.board?.cancelTurn();
          this.renderSlot();
        }),
      );
      return;
    }
    if (this.boardPrompt) {
      slot.classList.add('active');
      slot.append(el('span', { class: 'slot-text', role: 'status' }, this.boardPrompt.text));
      const c = this.boardPrompt.cancel;
      if (c) slot.append(btn(t('game.cancel'), 'cancel-move', c));
      return;
    }
    if (this.viewPly !== null && st.status === 'live') {
      slot.classList.add('history');
      slot.append(
        el('span', { class: 'slot-text' }, t('game.viewingHistory')),
        btn(t('game.backToLive'), 'back-to-live', () => this.go(st.ply), 'primary'),
      );
    }
  }

  private renderClocks(): void {
    const st = this.state;
    if (!st || !this.els) return;
    // before both first moves: the time left to move, counted on the server's clock
    const deadline = st.status === 'live' && st.you === st.turn ? st.clock?.first_move_deadline : null;
    let dl = this.els.status.querySelector<HTMLElement>('.first-move');
    if (deadline) {
      if (!dl) {
        dl = el('span', { class: 'first-move' });
        this.els.status.appendChild(dl);
      }
      const left = Math.max(0, Math.ceil((deadline - ws().serverNow()) / 1000));
      const text = ` · ${t('game.firstMoveDeadline', { s: left })}`;
      if (dl.textContent !== text) dl.textContent = text;
    } else dl?.remove();
    // a past position shows the clocks it had (when the server recorded them)
    const past = this.viewPly !== null ? clocksAt(st, this.viewPly) : undefined;
    for (const color of ['white', 'black'] as Color[])
      for (const c of this.root.querySelectorAll<HTMLElement>(`.clock-${color}`)) {
        if (!st.clock && !past) {
          c.hidden = true;
          continue;
        }
        c.hidden = false;
        const live = st.status === 'live' && !past;
        const ms = past ? past[color] : live ? remaining(st.clock!, color, this.receivedAt, performance.now()) : st.clock![color];
        const text = st.time.kind === 'correspondence' ? formatDays(ms) : formatClock(ms);
        if (c.textContent !== text) c.textContent = text;
        c.classList.toggle('running', live && st.clock!.running === color);
        c.classList.toggle('past', !!past);
        c.classList.toggle('low', st.time.kind === 'realtime' && ms < 10000);
        c.dataset.ms = String(Math.round(ms));
        if (live && color === st.you && st.clock!.running === color && st.time.kind === 'realtime' && ms < 10000 && !this.lowTimeSounded) {
          this.lowTimeSounded = true;
          play('lowtime');
        }
      }
  }

  private renderNav(): void {
    const st = this.state!;
    const nav = this.els.nav;
    clear(nav);
    const ok = this.hasHistory();
    const shown = this.shownPly();
    const mk = (icon: string, title: string, ply: number, action: string, disabled: boolean) => {
      const b = el('button', { type: 'button', class: 'btn nav-btn', title, 'aria-label': title, 'data-action': action });
      b.appendChild(svgIcon(icon));
      b.disabled = !ok || disabled;
      b.addEventListener('click', () => this.go(ply));
      return b;
    };
    nav.append(
      mk(ICONS.first, t('game.first'), 0, 'first', shown === 0),
      mk(ICONS.prev, t('game.prev'), shown - 1, 'prev', shown === 0),
      mk(ICONS.next, t('game.next'), shown + 1, 'next', shown >= st.ply),
      mk(ICONS.last, t('game.last'), st.ply, 'last', shown >= st.ply),
    );
    const flip = el('button', { type: 'button', class: 'btn nav-btn', title: t('game.flip'), 'aria-label': t('game.flip'), 'data-action': 'flip' });
    flip.appendChild(svgIcon(ICONS.flip));
    flip.addEventListener('click', () => this.flip());
    nav.appendChild(flip);
  }

  private renderControls(): void {
    const st = this.state!;
    const box = this.els.controls;
    clear(box);
    window.clearTimeout(this.claimTimer);
    const me = st.you;
    const send = (type: string) => ws().send({ type, game: st.game });
    const btn = (label: string, action: string, onClick: () => void, cls = '') => {
      const b = el('button', { type: 'button', class: `btn ${cls}`, 'data-action': action }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    if (!me) {
      box.appendChild(el('div', { class: 'spectator-note' }, t('game.spectator')));
      if (st.status === 'over' && st.rematch_game)
        box.appendChild(el('a', { href: `/game/${st.rematch_game}`, 'data-link': '', class: 'btn' }, t('game.rematch')));
      if (st.status === 'over') box.appendChild(this.analyseLink());
      this.placeEnd(st.status === 'over');
      return;
    }
    const opp = opposite(me);
    if (st.status === 'live') {
      // a tournament's game, before one's first move: half the clock for one more point
      if (mayBerserk(st, me)) box.appendChild(berserkButton(() => send('berserk')));
      if (st.draw_offer === opp) {
        box.append(
          el('div', { class: 'offer' }, t('game.opponentOffersDraw')),
          btn(t('game.acceptDraw'), 'draw-accept', () => send('draw_accept'), 'primary'),
          btn(t('game.declineDraw'), 'draw-decline', () => send('draw_decline')),
        );
      } else if (st.draw_offer === me) {
        const b = btn(t('game.drawOffered'), 'draw-offer', () => undefined);
        b.disabled = true;
        box.appendChild(b);
      } else if (!st.players[opp].computer) {
        box.appendChild(btn(t('game.offerDraw'), 'draw-offer', () => send('draw_offer')));
      }
      box.append(...takebackControls(st, me, btn, send));
      if (st.can_abort) box.appendChild(btn(t('game.abort'), 'abort', () => send('abort')));
      const claim = claimControls(st, ws().serverNowEarliest(), btn, send);
      box.append(...claim.nodes);
      if (claim.recheckIn !== undefined) this.claimTimer = window.setTimeout(() => this.renderControls(), claim.recheckIn);
      const r = btn(
        this.confirmResign ? t('game.confirmResign') : t('game.resign'),
        'resign',
        () => {
          if (this.confirmResign) {
            this.confirmResign = false;
            send('resign');
          } else {
            this.confirmResign = true;
            this.renderControls();
            window.setTimeout(() => {
              this.confirmResign = false;
              this.renderControls();
            }, 4000);
          }
        },
        this.confirmResign ? 'danger' : '',
      );
      box.appendChild(r);
    } else {
      if (st.rematch_game) {
        box.appendChild(el('a', { href: `/game/${st.rematch_game}`, 'data-link': '', class: 'btn primary' }, t('game.rematch')));
      } else if (st.rematch_offer === opp) {
        box.append(
          el('div', { class: 'offer' }, t('game.opponentOffersRematch')),
          btn(t('game.acceptDraw'), 'rematch-accept', () => send('rematch_accept'), 'primary'),
          btn(t('game.declineDraw'), 'rematch-decline', () => send('rematch_decline')),
        );
      } else if (st.rematch_offer === me) {
        const b = btn(t('game.rematchOffered'), 'rematch-offer', () => undefined);
        b.disabled = true;
        box.appendChild(b);
      } else {
        box.appendChild(btn(t('game.rematch'), 'rematch-offer', () => send('rematch_offer'), 'primary'));
      }
      box.appendChild(el('a', { href: '/', 'data-link': '', class: 'btn', 'data-action': 'new-game' }, t('game.newGame')));
      box.appendChild(this.analyseLink());
    }
    this.placeEnd(st.status === 'over' || box.querySelector('.offer.claim') !== null);
  }

  /**
   * On a phone the result and the next actions (rematch, a new game, the
   * analysis, a claim) go right under the board, in sight without scrolling;
   * elsewhere, and while the game is played, they stay in the side panel.
   */
  private placeEnd(ended: boolean): void {
    const { banner, controls, endBox, side, status, bottom } = this.els;
    const under = ended && this.media.matches;
    endBox.hidden = !under;
    this.root.querySelector('.game-page')?.classList.toggle('ended', under);
    if (under) {
      if (banner.parentElement !== endBox) endBox.append(banner, controls);
    } else if (banner.parentElement !== side) {
      side.insertBefore(banner, status);
      side.insertBefore(controls, bottom);
    }
  }

  /** The analysis board on the position shown (a finished game only: fair play). */
  private analyseLink(): HTMLElement {
    const st = this.state!;
    return el(
      'a',
      { href: `/analysis?game=${encodeURIComponent(st.game)}&ply=${this.shownPly()}`, 'data-link': '', class: 'btn', 'data-action': 'analyse' },
      t('game.analyse'),
    );
  }

  private renderExport(): void {
    const st = this.state!;
    const box = this.els.exportBox;
    clear(box);
    const fen = this.shownFen();
    const fenInput = el('input', { class: 'fen-field', type: 'text', readonly: '', value: fen, 'aria-label': t('game.fen') });
    const copy = el('button', { type: 'button', class: 'btn small', 'data-action': 'copy-fen' }, t('game.copyFen'));
    copy.addEventListener('click', () => {
      fenInput.select();
      void navigator.clipboard?.writeText(fen).catch(() => undefined);
    });
    const links = el(
      'div',
      { class: 'export-links' },
      el('a', { href: `/game/${st.game}.pgn`, download: `${st.game}.pgn`, class: 'btn small', 'data-action': 'pgn' }, t('game.exportPgn')),
    );
    // fair play: no engine for a game in progress, for its players and its spectators alike
    // (once it is over, the analysis is among the next actions: renderControls)
    if (st.status !== 'over') links.appendChild(el('span', { class: 'hint fair-play' }, t('game.analysisAfter')));
    box.append(el('div', { class: 'fen-row' }, el('label', {}, t('game.fen')), fenInput, copy), links);
  }
}

const ICONS = {
  first: 'M6 5h2v14H6zM20 5v14L9 12z',
  prev: 'M17 5v14L6 12z',
  next: 'M7 5v14l11-7z',
  last: 'M16 5h2v14h-2zM4 5v14l11-7z',
  flip: 'M7 3 3 7h3v9h2V7h3zm10 18 4-4h-3V8h-2v9h-3z',
};
