// Pieces of the game page that only render from a state: players with their
// material, the move list, the result banner, the clocks of a past position.

import type { GameState, MoveEntry } from '../api.js';
import { clear, el } from '../dom.js';
import { Color, Position, opposite, parseFen } from '../fen.js';
import { playerName, reasonText, resultTitle } from '../format.js';
import { lang, t } from '../i18n.js';
import { materialEdge } from '../material.js';
import { displaySan } from '../notation.js';
import { settings } from '../settings.js';

const FIG: Record<string, string> = { queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' };

/** The SAN of a move as this user reads it (figurines or the letters of the language). */
export function showSan(san: string, mover: Color): string {
  return displaySan(san, settings().notation, lang(), mover);
}

/** Who made the move at index `i` (0-based) of a game starting with `first` to move. */
export function moverOf(first: Color, i: number): Color {
  return i % 2 === 0 ? first : opposite(first);
}

export function renderPlayer(box: HTMLElement, st: GameState, color: Color, pos: Position | null): void {
  const p = st.players[color];
  clear(box);
  box.dataset.color = color;
  const dot = el('span', { class: `conn-dot ${p.computer || p.connected ? 'on' : 'off'}`, 'aria-hidden': 'true' });
  const mat = el('span', { class: 'material', 'data-color': color });
  if (pos) {
    const edge = materialEdge(pos, color);
    if (edge.extra.length || edge.points) {
      mat.append(el('span', { class: 'material-pieces', 'aria-hidden': 'true' }, edge.extra.map(r => FIG[r] ?? '').join('')));
      if (edge.points) mat.append(el('span', { class: 'material-points' }, `+${edge.points}`));
      mat.setAttribute('aria-label', t('game.material', { n: edge.points }));
    }
  }
  box.append(
    el(
      'div',
      { class: 'player-name' },
      dot,
      el('span', { class: `piece-icon ${color}`, 'aria-hidden': 'true' }),
      el(
        'span',
        { class: 'name-box' },
        el('span', { class: 'name' }, playerName(p)),
        el('span', { class: 'player-sub' }, st.you === color ? el('span', { class: 'you' }, `(${t('game.you')})`) : null, mat),
      ),
    ),
    el('div', { class: `clock clock-${color}`, 'data-color': color, role: 'timer', 'aria-label': t(`color.${color}`) }),
  );
}

export function renderResult(banner: HTMLElement, st: GameState): void {
  if (st.status !== 'over') {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  clear(banner);
  const aborted = st.termination === 'aborted';
  // an aborted game has no score: only its title
  if (!aborted) banner.append(el('div', { class: 'result-score' }, st.result.replace(/1\/2/g, '½')));
  banner.append(el('div', { class: 'result-title' }, resultTitle(st.result, st.termination)));
  const reason = reasonText(st.result, st.termination);
  if (reason) banner.append(el('div', { class: 'result-reason' }, reason));
  banner.dataset.result = st.result;
  banner.dataset.termination = st.termination ?? '';
}

/** The move list: numbered rows, each move a button-like cell (large on touch screens). */
export function renderMoveList(box: HTMLElement, st: GameState, shown: number, go: (ply: number) => void): void {
  clear(box);
  const start = parseFen(st.initial_fen);
  const startBlack = start.turn === 'black';
  let row: HTMLElement | null = null;
  st.moves.forEach((m, i) => {
    const idx = i + (startBlack ? 1 : 0);
    if (idx % 2 === 0 || row === null) {
      row = el('div', { class: 'move-row', role: 'listitem' });
      row.appendChild(el('span', { class: 'move-no' }, `${start.fullmove + Math.floor(idx / 2)}.`));
      if (idx % 2 === 1) row.appendChild(el('span', { class: 'move empty' }, '…'));
      box.appendChild(row);
    }
    const ply = i + 1;
    const cell = el(
      'span',
      { class: `move${ply === shown ? ' current' : ''}`, 'data-ply': String(ply), 'data-san': m.san, tabindex: '-1' },
      showSan(m.san, moverOf(start.turn, i)),
    );
    cell.addEventListener('click', () => go(ply));
    row.appendChild(cell);
  });
  const cur = box.querySelector<HTMLElement>('.current');
  if (cur) keepInView(box, cur, shown === st.ply);
}

/**
 * Scrolls the move list, and only it (never the page), so that the current
 * move is in sight: a column on a desktop (scrollTop), a horizontal strip on a
 * phone (scrollLeft). At the live position the list goes to its end.
 */
export function keepInView(box: HTMLElement, cur: HTMLElement, atEnd: boolean): void {
  if (atEnd) {
    box.scrollTop = box.scrollHeight;
    box.scrollLeft = box.scrollWidth;
    return;
  }
  const b = box.getBoundingClientRect();
  const c = cur.getBoundingClientRect();
  // the move's row number stays in sight too, on the strip
  const margin = Math.min(40, b.width / 4);
  if (c.left < b.left + margin) box.scrollLeft -= b.left + margin - c.left;
  else if (c.right > b.right - margin) box.scrollLeft += c.right - (b.right - margin);
  if (c.top < b.top) box.scrollTop -= b.top - c.top;
  else if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom;
}

/** The last few moves, for the Alice thumbnail row on phones. */
export function renderLastMoves(box: HTMLElement, st: GameState, n = 4): void {
  clear(box);
  const start = parseFen(st.initial_fen);
  const from = Math.max(0, st.moves.length - n);
  for (let i = from; i < st.moves.length; i++) {
    const idx = i + (start.turn === 'black' ? 1 : 0);
    const no = `${start.fullmove + Math.floor(idx / 2)}${idx % 2 === 0 ? '.' : '…'}`;
    box.appendChild(el('span', { class: 'last-move', 'data-ply': String(i + 1) }, `${no} ${showSan(st.moves[i].san, moverOf(start.turn, i))}`));
  }
}

/**
 * The clock times of the position after `ply` moves, from the clock each
 * move recorded (the mover's time left); undefined when the server sends none.
 */
export function clocksAt(st: GameState, ply: number): { white: number; black: number } | undefined {
  const moves: MoveEntry[] = st.moves;
  if (!moves.some(m => typeof m.clock === 'number')) return undefined;
  const first = parseFen(st.initial_fen).turn;
  const initial = st.time.kind === 'realtime' ? st.time.minutes * 60000 : undefined;
  const out: Record<Color, number | undefined> = { white: initial, black: initial };
  for (let i = 0; i < ply && i < moves.length; i++) {
    const c = moves[i].clock;
    if (typeof c === 'number') out[moverOf(first, i)] = c;
  }
  if (out.white === undefined || out.black === undefined) return undefined;
  return { white: out.white, black: out.black };
}

/**
 * The opponent left (the server says so in `claim`): a note, then, from
 * `available_at`, the two claims. `serverNow`: the earliest the server's clock
 * can read (a claim offered early would be refused). `recheckIn`: when to
 * render again (ms) while the claim is not yet open.
 */
export function claimControls(
  st: GameState,
  serverNow: number,
  button: (label: string, action: string, onClick: () => void, cls?: string) => HTMLElement,
  send: (type: string) => void,
): { nodes: HTMLElement[]; recheckIn?: number } {
  if (st.status !== 'live' || !st.claim || st.claim.by !== st.you) return { nodes: [] };
  const wait = st.claim.available_at - serverNow;
  const note = el('div', { class: 'offer claim' }, t('game.opponentLeft'));
  if (wait > 0) {
    note.append(' ', t('game.claimIn', { s: Math.ceil(wait / 1000) }));
    return { nodes: [note], recheckIn: Math.min(wait, 1000) };
  }
  return {
    nodes: [
      note,
      button(t('game.claimVictory'), 'claim-victory', () => send('claim_victory'), 'primary'),
      button(t('game.claimDraw'), 'claim-draw', () => send('claim_draw')),
    ],
  };
}

/**
 * Takeback (the server decides what is allowed: `state.takeback`): the
 * opponent's proposal with its answers, one's own waiting proposal, or the
 * button to propose one.
 */
export function takebackControls(
  st: GameState,
  me: Color,
  button: (label: string, action: string, onClick: () => void, cls?: string) => HTMLElement,
  send: (type: string) => void,
): HTMLElement[] {
  const tb = st.takeback;
  if (st.status !== 'live' || !tb) return [];
  if (tb.offer && tb.offer !== me)
    return [
      el('div', { class: 'offer takeback' }, t('game.opponentOffersTakeback')),
      button(t('game.acceptDraw'), 'takeback-accept', () => send('takeback_accept'), 'primary'),
      button(t('game.declineDraw'), 'takeback-decline', () => send('takeback_decline')),
    ];
  if (tb.offer === me) {
    const b = button(t('game.takebackOffered'), 'takeback-offer', () => undefined);
    (b as HTMLButtonElement).disabled = true;
    return [b];
  }
  return tb[me] ? [button(t('game.takeback'), 'takeback-offer', () => send('takeback_offer'))] : [];
}
