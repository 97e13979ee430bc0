// The computer review on the game page: the request button of a finished
// game, its progress (streamed over the game's socket room), then the
// evaluation graph under the board, the marks in the move list and the best
// move's arrows (review-view.ts draws them; the server judges every move).

import { GameState, http } from '../api.js';
import type { ReviewMessage } from '../protocol.js';
import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { BoardIndex, parseFen } from '../fen.js';
import { t } from '../i18n.js';
import { Review, ReviewStatus, bestArrows, fetchReview, markMoveList, renderReview } from '../review-view.js';
import { LearnPanel, mistakesOf } from './review-learn.js';

export class GameReviewPanel {
  private state: ReviewStatus | null = null;
  private loaded = false;
  private busy = false;
  private error = '';
  private showBest = false;
  private shown = 0;
  private fen = '';
  private movesBox: HTMLElement | null = null;
  private learn: LearnPanel;

  constructor(
    private host: HTMLElement,
    private game: string,
    private go: (ply: number) => void,
    private board: () => BoardView | null,
    private gameState: () => GameState | null,
  ) {
    host.hidden = true;
    this.learn = new LearnPanel(
      game,
      gameState()?.variant ?? 'chess',
      p => {
        const st = this.gameState();
        return !st ? '' : p === 0 ? st.initial_fen : (st.moves[p - 1]?.fen ?? st.initial_fen);
      },
      go,
      () => this.draw(),
    );
  }

  /** A `review` message of the game's room. */
  onMessage(m: ReviewMessage): void {
    if (m.game !== this.game) return;
    this.state = m;
    this.loaded = true;
    this.draw();
  }

  /** Called with each render of the game page: the game's status, the ply and position shown. */
  update(over: boolean, shown: number, fen: string, movesBox: HTMLElement): void {
    this.host.hidden = !over;
    if (!over) return;
    this.shown = shown;
    this.fen = fen;
    this.movesBox = movesBox;
    if (!this.loaded) {
      this.loaded = true;
      fetchReview(this.game).then(
        s => {
          if (!this.state || this.state.status !== 'done') this.state = s;
          this.draw();
        },
        () => this.draw(), // 404: never requested
      );
    }
    this.draw();
  }

  private request(): void {
    this.busy = true;
    this.error = '';
    this.draw();
    http<ReviewStatus>('POST', `/api/games/${encodeURIComponent(this.game)}/review`, {}).then(
      s => {
        this.busy = false;
        // a progress message may have come first
        if (!this.state || this.state.status !== 'done') this.state = s;
        this.draw();
      },
      (e: unknown) => {
        this.busy = false;
        this.error = errorText(e);
        this.draw();
      },
    );
  }

  private draw(): void {
    const host = this.host;
    if (host.hidden) return;
    clear(host);
    const s = this.state;
    const review = s?.status === 'done' ? s.review : undefined;
    if (review) {
      const graph = el('div', { class: 'review-graph' });
      renderReview(graph, review, Math.min(this.shown, review.positions.length - 1), p => this.go(p));
      const best = el('label', { class: 'review-best' });
      const box = el('input', { type: 'checkbox', 'data-action': 'show-best' });
      box.checked = this.showBest;
      box.addEventListener('change', () => {
        this.showBest = box.checked;
        this.draw();
      });
      const bestSan = review.positions[this.shown]?.best_san;
      best.append(box, ` ${t('review.showBest')}`, bestSan && this.showBest ? el('span', { class: 'best-san' }, ` ${bestSan}`) : '');
      // the position shown (a click in the graph, on a mark or a move) on the analysis board
      const analyse = el(
        'a',
        { href: `/analysis?game=${encodeURIComponent(this.game)}&ply=${this.shown}`, 'data-link': '', class: 'btn small', 'data-action': 'review-analyse' },
        t('review.analyseHere'),
      );
      host.append(el('h3', {}, t('review.title')), graph, best, analyse);
      // learn from your mistakes: a player's own mistakes and blunders, one by one
      const you = this.gameState()?.you;
      if (you && this.learn.active()) {
        const box = el('div', { class: 'learn-host' });
        this.learn.render(box, review);
        host.appendChild(box);
      } else if (you && mistakesOf(review, you).length) {
        const start = el('button', { type: 'button', class: 'btn small primary', 'data-action': 'learn-start' }, t('learn.start'));
        start.addEventListener('click', () => this.learn.start(review, you));
        host.appendChild(start);
      }
      if (this.movesBox) markMoveList(this.movesBox, review);
      this.arrows(review);
      return;
    }
    if (s && (s.status === 'queued' || s.status === 'running')) {
      const progress = el('progress', { class: 'review-progress', max: String(s.total ?? 1), value: String(s.done ?? 0) });
      host.append(el('p', { class: 'review-status', 'aria-live': 'polite' }, t('review.progress', { done: s.done ?? 0, total: s.total ?? 0 })), progress);
      return;
    }
    const button = el('button', { type: 'button', class: 'btn small primary', 'data-action': 'request-review' }, t('review.request'));
    button.disabled = this.busy;
    button.addEventListener('click', () => this.request());
    host.appendChild(button);
    if (s?.status === 'interrupted') host.appendChild(el('p', { class: 'hint' }, t('review.interrupted')));
    if (s?.status === 'failed') host.appendChild(el('p', { class: 'hint error' }, t('review.failed')));
    if (this.error) host.appendChild(el('p', { class: 'hint error', role: 'alert' }, this.error));
  }

  private arrows(review: Review): void {
    const b = this.board();
    if (!b) return;
    const all = this.showBest && this.fen ? bestArrows(review, this.shown, parseFen(this.fen)) : [];
    for (const board of [0, 1] as BoardIndex[])
      b.setArrows(
        all.filter(a => a.board === board),
        board,
      );
  }
}
