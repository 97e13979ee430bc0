// Continuous analysis on the analysis board: the engine on the server
// analyses the position shown and streams each depth over the socket
// ({type:"analyse"} / {type:"analysis"}, docs/API.md); shown as an
// evaluation bar and 1-3 lines, each of which plays itself onto the board
// when clicked. Stopped when the tab is hidden or the page left, and started
// again when it comes back.

import { ws } from '../api.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { Color, Variant, opposite } from '../fen.js';
import { t } from '../i18n.js';
import { showSan } from './game-parts.js';
import type { AnalysisMessage, WireAnalysisLine } from '../protocol.js';

// The server's `analysis` message and its lines (src/protocol.ts).
type Line = WireAnalysisLine;
type Update = AnalysisMessage;

export interface LivePosition {
  variant: Variant;
  fen: string;
  moves: string[];
  /** the side to move and the move number, for the lines' numbering */
  turn: Color;
  fullmove: number;
}

/** White's evaluation as text: "+0.34", "#3" (White mates), "#-2". */
export function scoreText(l: Pick<Line, 'cp' | 'mate'>): string {
  if (l.mate !== null) return `#${l.mate}`;
  if (l.cp !== null) return `${l.cp >= 0 ? '+' : ''}${(l.cp / 100).toFixed(2)}`;
  return '';
}

export class LiveAnalysis {
  readonly element: HTMLElement;
  private on = false;
  private enabled = true;
  private pos: LivePosition | null = null;
  private id = 0;
  private running = false;
  private multipv: HTMLSelectElement;
  private toggle: HTMLButtonElement;
  private bar: HTMLElement;
  private fill: HTMLElement;
  private status: HTMLElement;
  private lines: HTMLElement;
  private shown: Line[] = []; // the lines the buttons show, for their clicks
  private unsub: (() => void)[] = [];

  constructor(private play: (moves: string[], san: string[]) => void) {
    this.toggle = el('button', { type: 'button', class: 'btn small', 'data-action': 'analyse-live', 'aria-pressed': 'false' }, t('analysis.live'));
    this.multipv = el('select', { name: 'multipv', 'aria-label': t('analysis.lines') });
    for (const n of [1, 2, 3]) this.multipv.appendChild(el('option', { value: String(n) }, String(n)));
    this.multipv.value = '2';
    this.fill = el('div', { class: 'eval-bar-white' });
    this.bar = el('div', { class: 'eval-bar', role: 'meter', 'aria-label': t('analysis.bar'), 'aria-valuemin': '0', 'aria-valuemax': '100', hidden: '' }, this.fill);
    this.status = el('div', { class: 'live-status', 'aria-live': 'polite' });
    this.lines = el('div', { class: 'live-lines' });
    this.element = el(
      'div',
      { class: 'live-analysis' },
      el('div', { class: 'controls' }, this.toggle, el('label', { class: 'inline' }, `${t('analysis.lines')} `, this.multipv)),
      this.bar,
      this.status,
      this.lines,
    );
    this.toggle.addEventListener('click', () => this.setOn(!this.on));
    this.multipv.addEventListener('change', () => this.restart());
    const s = ws();
    this.unsub.push(
      s.on('analysis', m => this.onUpdate(m)),
      s.on('error', m => {
        if (m.id === this.id && this.running) {
          this.running = false;
          this.status.textContent = errorText(m);
        }
      }),
      // a new socket has no stream: ask again
      s.onStatus(up => {
        if (up && this.running) this.restart();
      }),
    );
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  destroy(): void {
    this.stop();
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.unsub.forEach(f => f());
  }

  /** The position shown on the board changed. */
  setPosition(p: LivePosition | null): void {
    this.pos = p;
    if (!p) this.stop();
    this.restart();
  }

  /** Fair play: no engine on a live game's position. */
  setEnabled(on: boolean): void {
    this.enabled = on;
    this.toggle.disabled = !on;
    if (!on) this.setOn(false);
  }

  private setOn(on: boolean): void {
    this.on = on && this.enabled;
    this.toggle.setAttribute('aria-pressed', String(this.on));
    this.toggle.classList.toggle('primary', this.on);
    this.bar.hidden = !this.on;
    if (this.on) this.restart();
    else {
      this.stop();
      clear(this.lines);
      this.status.textContent = '';
    }
  }

  private onVisibility = () => {
    if (document.hidden) this.stop();
    else if (this.on) this.restart();
  };

  private restart(): void {
    if (!this.on || !this.pos || document.hidden) return;
    this.id += 1;
    this.running = true;
    clear(this.lines);
    this.status.textContent = t('analysis.evaluating');
    const p = this.pos;
    ws().send({ type: 'analyse', id: this.id, variant: p.variant, fen: p.fen, moves: p.moves, multipv: Number(this.multipv.value) });
  }

  private stop(): void {
    if (!this.running) return;
    this.running = false;
    this.id += 1; // what is still on its way is dropped
    ws().send({ type: 'analyse_stop' });
  }

  private onUpdate(u: Update): void {
    if (u.id !== this.id || !this.running || !this.pos) return;
    if (u.final) this.running = false;
    const best = u.lines[0];
    this.status.textContent = u.lines.length ? t('analysis.depth', { depth: u.depth }) : t('analysis.noMoves');
    if (best) {
      const [w, d] = best.wdl;
      const white = Math.round((w + d / 2) / 10);
      this.fill.style.width = `${white}%`;
      this.bar.setAttribute('aria-valuenow', String(white));
      this.bar.title = scoreText(best);
    }
    // The buttons are kept and only their contents change: a button replaced
    // under the pointer between press and release would lose the click (a
    // depth a second comes while the player aims).
    this.shown = u.lines;
    while (this.lines.children.length > u.lines.length) this.lines.lastElementChild?.remove();
    const pos = this.pos;
    u.lines.forEach((l, k) => {
      const parts: string[] = [];
      let turn = pos.turn;
      let no = pos.fullmove;
      l.san.forEach((san, i) => {
        if (turn === 'white') parts.push(`${no}.`);
        else if (i === 0) parts.push(`${no}…`);
        parts.push(showSan(san, turn));
        if (turn === 'black') no += 1;
        turn = opposite(turn);
      });
      let b = this.lines.children[k] as HTMLButtonElement | undefined;
      if (!b) {
        b = el('button', { type: 'button', class: 'live-line' });
        b.addEventListener('click', () => {
          const line = this.shown[k];
          if (line) this.play(line.moves, line.san);
        });
        this.lines.appendChild(b);
      }
      b.setAttribute('data-multipv', String(l.multipv));
      b.setAttribute('data-move', l.moves[0] ?? '');
      b.replaceChildren(el('span', { class: 'live-score' }, scoreText(l)), ` ${parts.join(' ')}`);
    });
  }
}
