// The game page: live play, spectating, and the finished-game viewer.

import { ApiError, GameState, MoveEntry, api, ws } from '../api.js';
import { BoardView } from '../board.js';
import { clear, el, svgIcon } from '../dom.js';
import { Color, Variant, opposite, parseFen } from '../fen.js';
import { formatClock, formatDays, formatTime, playerName, reasonText, remaining, resultTitle } from '../format.js';
import { errorMessage, t } from '../i18n.js';
import { matchFirstPart, matchInput } from '../moves.js';
import { navigate } from '../router.js';
import { play } from '../sound.js';

export function gamePage(root: HTMLElement, id: string): () => void {
  const page = new GamePage(root, id);
  return () => page.destroy();
}

class GamePage {
  private state: GameState | null = null;
  private claimTimer: number | undefined;
  private receivedAt = 0;
  private board: BoardView | null = null;
  private variant: Variant | null = null;
  /** Ply shown; null follows the live position. */
  private viewPly: number | null = null;
  private orientation: Color | null = null;
  private unsub: (() => void)[] = [];
  private tick: number | undefined;
  private confirmResign = false;
  private els!: {
    boardHost: HTMLElement;
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
    prompt: HTMLElement;
  };

  constructor(
    private root: HTMLElement,
    private id: string,
  ) {
    clear(root);
    root.appendChild(el('div', { class: 'loading' }, t('game.loading')));
    const s = ws();
    this.unsub.push(
      s.on('state', m => {
        if (m.game === id) this.onState(m as unknown as GameState);
      }),
      s.on('error', m => {
        if (m.game === id || m.game === undefined) this.onError(String(m.code ?? ''), String(m.message ?? ''));
      }),
      s.onStatus(up => this.onConnection(up)),
    );
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
  }

  private build(st: GameState): void {
    clear(this.root);
    this.variant = st.variant;
    const boardHost = el('div', { class: 'game-board' });
    const prompt = el('div', { class: 'move-prompt', 'aria-live': 'polite' });
    const input = el('input', {
      class: 'san-input',
      type: 'text',
      placeholder: t('game.moveInput'),
      'aria-label': t('game.moveInput'),
      autocomplete: 'off',
      spellcheck: 'false',
    });
    const inputMsg = el('div', { class: 'input-msg', 'aria-live': 'polite' });
    input.addEventListener('keydown', e => {
      if (e.key === 'Enter') {
        this.onInput(input.value);
      }
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
    const conn = el('div', { class: 'conn-status', hidden: '' });
    const exportBox = el('div', { class: 'export' });
    const info = el(
      'div',
      { class: 'game-info' },
      el('span', { class: 'variant-name' }, t(`variant.${st.variant}`)),
      el('span', { class: 'tc' }, formatTime(st.time)),
      el('a', { href: `/rules/${st.variant}`, 'data-link': '', class: 'rules-link' }, t('nav.rules')),
    );
    side.append(info, top, banner, status, moves, nav, controls, bottom, exportBox);
    // on small screens the players and clocks sit above and below the board
    const barTop = el('div', { class: 'player-bar top' });
    const barBottom = el('div', { class: 'player-bar bottom' });
    const main = el('div', { class: 'game-main' }, barTop, boardHost, barBottom, prompt, el('div', { class: 'san-row' }, input, inputMsg));
    this.root.append(conn, el('div', { class: `game-page variant-${st.variant}` }, main, side));
    this.els = { boardHost, banner, status, moves, controls, top, bottom, barTop, barBottom, nav, input, inputMsg, conn, exportBox, prompt };
    this.orientation = this.orientation ?? (st.you === 'black' ? 'black' : 'white');
    this.board = new BoardView(boardHost, st.variant, {
      orientation: this.orientation,
      onMove: m => this.sendMove(m),
      onPrompt: text => {
        prompt.textContent = text ?? '';
      },
    });
  }

  private onState(st: GameState): void {
    const prev = this.state;
    if (prev && st.ply < prev.ply && st.game === prev.game && st.status === prev.status) {
      // an older HTTP answer arriving after a newer socket state
      if (st.status === 'live') return;
    }
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
    if (prev && prev.game === st.game) {
      if (st.status === 'over' && prev.status === 'live') play('end');
      else if (st.ply > prev.ply) {
        const san = st.moves[st.ply - 1]?.san ?? '';
        play(/[+#]$/.test(san) ? 'check' : san.includes('x') ? 'capture' : 'move');
      }
    }
    this.renderBoard();
    this.render();
    if (st.rematch_game && st.you && prev && !prev.rematch_game) {
      navigate(`/game/${st.rematch_game}`);
    }
  }

  private onError(code: string, message: string): void {
    if (!this.state) return;
    this.els.inputMsg.textContent = errorMessage(code, message);
    this.els.inputMsg.classList.add('error');
    // put the board back as the server has it
    this.renderBoard(true);
  }

  private onConnection(up: boolean): void {
    if (!this.els) return;
    this.els.conn.hidden = up;
    this.els.conn.textContent = up ? t('game.connection.back') : t('game.connection.lost');
    this.els.conn.classList.toggle('down', !up);
  }

  private sendMove(move: string): void {
    const st = this.state;
    if (!st) return;
    this.els.inputMsg.textContent = '';
    this.els.inputMsg.classList.remove('error');
    ws().send({ type: 'move', game: st.game, move, ply: st.ply });
  }

  private onInput(text: string): void {
    const st = this.state;
    if (!st || !this.board) return;
    const msg = this.els.inputMsg;
    msg.classList.remove('error');
    if (!this.canMove()) return;
    const pos = this.board.position();
    const moves = this.board.legalMoves();
    let m = matchInput(pos, moves, text);
    if (!m && st.variant === 'avalanche') {
      const firsts = matchFirstPart(pos, moves, text);
      if (firsts.length === 1 || (firsts.length > 0 && firsts.every(f => !f.push))) m = firsts[0];
      else if (firsts.length > 1) {
        msg.textContent = t('game.ambiguousMove', { move: text });
        msg.classList.add('error');
        return;
      }
    }
    if (!m) {
      msg.textContent = t('game.badMove', { move: text });
      msg.classList.add('error');
      return;
    }
    msg.textContent = '';
    this.els.input.value = '';
    this.board.playKeyboard(m);
  }

  private onKey = (e: KeyboardEvent): void => {
    if (!this.state || (e.target as HTMLElement)?.tagName === 'INPUT') return;
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
      const entry: MoveEntry | undefined = st.moves[ply - 1];
      this.board.update({
        fen: ply === 0 ? st.initial_fen : entry!.fen!,
        legal: [],
        canMove: false,
        lastMove: entry?.uci,
        check: !!entry?.check,
      });
    }
  }

  private render(): void {
    const st = this.state;
    if (!st) return;
    const e = this.els;
    const bottomColor: Color = this.orientation ?? 'white';
    this.renderPlayer(e.top, opposite(bottomColor));
    this.renderPlayer(e.bottom, bottomColor);
    this.renderPlayer(e.barTop, opposite(bottomColor));
    this.renderPlayer(e.barBottom, bottomColor);
    this.renderClocks();

    // result banner
    if (st.status === 'over') {
      e.banner.hidden = false;
      clear(e.banner);
      e.banner.append(
        el('div', { class: 'result-score' }, st.termination === 'aborted' ? '–' : st.result.replace('1/2', '½').replace('1/2', '½')),
        el('div', { class: 'result-title' }, resultTitle(st.result, st.termination)),
        el('div', { class: 'result-reason' }, reasonText(st.result, st.termination)),
      );
      e.banner.dataset.result = st.result;
      e.banner.dataset.termination = st.termination ?? '';
    } else {
      e.banner.hidden = true;
    }

    // status line
    let status = '';
    if (st.status === 'live') {
      if (st.you === null) status = t('game.toMove', { color: t(`color.${st.turn}`) });
      else if (st.you === st.turn) status = t('game.yourTurn');
      else status = t('game.waitingOpponent');
    }
    e.status.textContent = status;
    // the tab's title tells whose turn it is, as on lichess
    const title = `${t(`variant.${st.variant}`)} · ${playerName(st.players.white)} – ${playerName(st.players.black)}`;
    document.title = st.status === 'live' && st.you === st.turn ? `● ${t('game.yourTurn')} · ${title}` : title;
    e.status.hidden = !status;
    e.status.dataset.turn = st.turn;

    this.renderMoves();
    this.renderNav();
    this.renderControls();
    this.renderExport();
    e.input.disabled = !this.canMove();
    e.input.hidden = st.status !== 'live' || st.you === null;
  }

  private renderPlayer(box: HTMLElement, color: Color): void {
    const st = this.state!;
    const p = st.players[color];
    clear(box);
    box.dataset.color = color;
    const name = playerName(p);
    const dot = el('span', { class: `conn-dot ${p.computer || p.connected ? 'on' : 'off'}` });
    box.append(
      el(
        'div',
        { class: 'player-name' },
        dot,
        el('span', { class: `piece-icon ${color}` }),
        el('span', { class: 'name' }, name),
        st.you === color ? el('span', { class: 'you' }, `(${t('game.you')})`) : null,
      ),
      el('div', { class: `clock clock-${color}`, 'data-color': color }),
    );
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
    for (const color of ['white', 'black'] as Color[]) for (const c of this.root.querySelectorAll<HTMLElement>(`.clock-${color}`)) {
      if (!st.clock) {
        c.hidden = true;
        continue;
      }
      const live = st.status === 'live';
      const ms = live ? remaining(st.clock, color, this.receivedAt, performance.now()) : st.clock[color];
      const text = st.time.kind === 'correspondence' ? formatDays(ms) : formatClock(ms);
      if (c.textContent !== text) c.textContent = text;
      c.classList.toggle('running', live && st.clock.running === color);
      c.classList.toggle('low', st.time.kind === 'realtime' && ms < 10000);
      c.dataset.ms = String(Math.round(ms));
    }
  }

  private renderMoves(): void {
    const st = this.state!;
    const box = this.els.moves;
    clear(box);
    const shown = this.shownPly();
    const startBlack = parseFen(st.initial_fen).turn === 'black';
    const startNo = parseFen(st.initial_fen).fullmove;
    let row: HTMLElement | null = null;
    st.moves.forEach((m, i) => {
      const idx = i + (startBlack ? 1 : 0);
      if (idx % 2 === 0 || row === null) {
        row = el('div', { class: 'move-row', role: 'listitem' });
        row.appendChild(el('span', { class: 'move-no' }, `${startNo + Math.floor(idx / 2)}.`));
        if (idx % 2 === 1) row.appendChild(el('span', { class: 'move empty' }, '…'));
        box.appendChild(row);
      }
      const ply = i + 1;
      const cell = el('span', { class: `move${ply === shown ? ' current' : ''}`, 'data-ply': String(ply) }, m.san);
      cell.addEventListener('click', () => this.go(ply));
      row.appendChild(cell);
    });
    const cur = box.querySelector('.current');
    if (cur && this.viewPly === null) box.scrollTop = box.scrollHeight;
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

  /** The opponent left: a note, then (from `available_at`) the two claims. */
  private renderClaim(box: HTMLElement, send: (type: string) => void, btn: (l: string, a: string, f: () => void, c?: string) => HTMLElement): void {
    const st = this.state!;
    window.clearTimeout(this.claimTimer);
    if (!st.claim || st.claim.by !== st.you) return;
    const wait = st.claim.available_at - ws().serverNow();
    const note = el('div', { class: 'offer claim' }, t('game.opponentLeft'));
    box.appendChild(note);
    if (wait > 0) {
      note.append(' ', t('game.claimIn', { s: Math.ceil(wait / 1000) }));
      this.claimTimer = window.setTimeout(() => this.renderControls(), Math.min(wait, 1000));
      return;
    }
    box.append(
      btn(t('game.claimVictory'), 'claim-victory', () => send('claim_victory'), 'primary'),
      btn(t('game.claimDraw'), 'claim-draw', () => send('claim_draw')),
    );
  }

  private renderControls(): void {
    const st = this.state!;
    const box = this.els.controls;
    clear(box);
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
      return;
    }
    const opp = opposite(me);
    if (st.status === 'live') {
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
      if (st.can_abort) box.appendChild(btn(t('game.abort'), 'abort', () => send('abort')));
      this.renderClaim(box, send, btn);
      const r = btn(this.confirmResign ? t('game.confirmResign') : t('game.resign'), 'resign', () => {
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
      }, this.confirmResign ? 'danger' : '');
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
      } else if (st.termination !== 'aborted' || true) {
        box.appendChild(btn(t('game.rematch'), 'rematch-offer', () => send('rematch_offer'), 'primary'));
      }
      box.appendChild(el('a', { href: '/', 'data-link': '', class: 'btn' }, t('game.newGame')));
    }
  }

  private renderExport(): void {
    const st = this.state!;
    const box = this.els.exportBox;
    clear(box);
    const ply = this.shownPly();
    const fen = this.viewPly === null ? st.fen : ply === 0 ? st.initial_fen : st.moves[ply - 1].fen!;
    const fenInput = el('input', { class: 'fen-field', type: 'text', readonly: '', value: fen, 'aria-label': t('game.fen') });
    const copy = el('button', { type: 'button', class: 'btn small', 'data-action': 'copy-fen' }, t('game.copyFen'));
    copy.addEventListener('click', () => {
      fenInput.select();
      void navigator.clipboard?.writeText(fen).catch(() => undefined);
    });
    box.append(
      el('div', { class: 'fen-row' }, el('label', {}, t('game.fen')), fenInput, copy),
      el(
        'div',
        { class: 'export-links' },
        el('a', { href: `/game/${st.game}.pgn`, download: `${st.game}.pgn`, class: 'btn small', 'data-action': 'pgn' }, t('game.exportPgn')),
        el(
          'a',
          { href: `/analysis?variant=${st.variant}&fen=${encodeURIComponent(fen)}`, 'data-link': '', class: 'btn small' },
          t('game.analyse'),
        ),
      ),
    );
  }
}

const ICONS = {
  first: 'M6 5h2v14H6zM20 5v14L9 12z',
  prev: 'M17 5v14L6 12z',
  next: 'M7 5v14l11-7z',
  last: 'M16 5h2v14h-2zM4 5v14l11-7z',
  flip: 'M7 3 3 7h3v9h2V7h3zm10 18 4-4h-3V8h-2v9h-3z',
};

