// "Learn from your mistakes" in the review of a finished game: the player
// steps through their own mistakes and blunders (the server's judgements),
// sees the position before each, types a better move, and the server says
// whether it is as good as the engine's (POST /api/games/:id/review/try;
// nothing is judged here).

import { api, http } from '../api.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import type { Color } from '../fen.js';
import { lang, t } from '../i18n.js';
import { parseMoves } from '../moves.js';
import { displaySan, matchTyped } from '../notation.js';
import type { Review, ReviewMove } from '../review-view.js';

interface TryAnswer {
  move: string;
  san: string;
  verdict: 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';
  loss: number;
}

/** The moves of `you` to learn from: mistakes and blunders, in game order. */
export function mistakesOf(review: Review, you: Color): ReviewMove[] {
  return review.moves.filter(m => m.color === you && (m.judgement === 'mistake' || m.judgement === 'blunder'));
}

export class LearnPanel {
  private list: ReviewMove[] = [];
  private i = 0;
  private typed = '';
  private answer: TryAnswer | null = null;
  private error = '';
  private busy = false;
  private showBest = false;
  private legal: { moves: string[]; sans: string[] } | null = null;

  constructor(
    private game: string,
    private variant: string,
    /** The FEN before ply `p` (0: the start). */
    private fenBefore: (p: number) => string,
    private go: (ply: number) => void,
    private redraw: () => void,
  ) {}

  active(): boolean {
    return this.list.length > 0;
  }

  start(review: Review, you: Color): void {
    this.list = mistakesOf(review, you);
    this.i = 0;
    this.enter();
  }

  stop(): void {
    this.list = [];
    this.redraw();
  }

  private enter(): void {
    this.typed = '';
    this.answer = null;
    this.error = '';
    this.showBest = false;
    this.legal = null;
    const m = this.list[this.i];
    if (!m) return this.stop();
    this.go(m.ply - 1); // the position before the mistake
    const fen = this.fenBefore(m.ply - 1);
    api.analysis({ variant: this.variant, fen }).then(
      a => {
        if (this.list[this.i] !== m) return;
        this.legal = { moves: a.legal_moves, sans: a.legal_san ?? [] };
      },
      () => undefined, // the server reads coordinates and SAN itself
    );
    this.redraw();
  }

  private submit(): void {
    const m = this.list[this.i];
    if (!m || this.busy || !this.typed.trim()) return;
    // the letters of the interface (French too) read against the position's legal moves
    let move = this.typed.trim();
    if (this.legal) {
      const found = matchTyped(move, parseMoves(this.legal.moves), this.legal.sans, lang());
      if (found.kind === 'move') move = found.move.raw;
    }
    this.busy = true;
    this.error = '';
    this.answer = null;
    this.redraw();
    http<TryAnswer>('POST', `/api/games/${encodeURIComponent(this.game)}/review/try`, { ply: m.ply, move }).then(
      a => {
        this.busy = false;
        this.answer = a;
        if (a.verdict === 'best' || a.verdict === 'good') this.showBest = true;
        this.redraw();
      },
      (e: unknown) => {
        this.busy = false;
        this.error = errorText(e);
        this.redraw();
      },
    );
  }

  /** The panel for the current mistake, into `host`. */
  render(host: HTMLElement, review: Review): void {
    clear(host);
    const m = this.list[this.i];
    if (!m) return;
    const mover = m.color;
    const san = (s: string) => displaySan(s, 'letters', lang(), mover);
    const box = el('div', { class: 'learn', 'data-ply': String(m.ply) });
    box.appendChild(
      el(
        'p',
        { class: 'learn-task' },
        t('learn.task', { n: this.i + 1, total: this.list.length, san: san(m.san), judgement: t(`review.${m.judgement ?? 'mistake'}`).toLowerCase() }),
      ),
    );
    const form = el('form', { class: 'learn-form' });
    const input = el('input', { type: 'text', class: 'learn-input', 'aria-label': t('learn.input'), placeholder: t('learn.input'), autocomplete: 'off' });
    input.value = this.typed;
    input.addEventListener('input', () => (this.typed = input.value));
    const tryBtn = el('button', { type: 'submit', class: 'btn small primary', 'data-action': 'learn-try' }, t('learn.try'));
    tryBtn.disabled = this.busy;
    form.append(input, tryBtn);
    form.addEventListener('submit', e => {
      e.preventDefault();
      this.submit();
    });
    box.appendChild(form);
    if (this.answer) {
      const a = this.answer;
      const text =
        a.verdict === 'best'
          ? t('learn.best', { san: san(a.san) })
          : a.verdict === 'good'
            ? t('learn.good', { san: san(a.san) })
            : t('learn.notBetter', { san: san(a.san), judgement: t(`review.${a.verdict}`).toLowerCase() });
      box.appendChild(el('p', { class: `learn-result ${a.verdict}`, 'data-verdict': a.verdict, 'aria-live': 'polite' }, text));
    }
    if (this.error) box.appendChild(el('p', { class: 'hint error', role: 'alert' }, this.error));
    const best = review.positions[m.ply - 1]?.best_san;
    if (this.showBest && best) box.appendChild(el('p', { class: 'learn-best' }, t('learn.engine', { san: san(best) })));
    const actions = el('div', { class: 'learn-actions' });
    const button = (label: string, action: string, onClick: () => void) => {
      const b = el('button', { type: 'button', class: 'btn small', 'data-action': action }, label);
      b.addEventListener('click', onClick);
      actions.appendChild(b);
    };
    if (!this.showBest && best)
      button(t('learn.show'), 'learn-show', () => {
        this.showBest = true;
        this.redraw();
      });
    if (this.i + 1 < this.list.length)
      button(t('learn.next'), 'learn-next', () => {
        this.i++;
        this.enter();
      });
    button(t('learn.stop'), 'learn-stop', () => this.stop());
    box.appendChild(actions);
    host.appendChild(box);
  }
}
