// The computer analysis of a finished game as the viewer shows it, on the
// game page (pages/game-review.ts) and on the analysis board opened from the
// game (pages/analysis-review.ts): the evaluation graph (White's expected
// score after each ply; a click jumps to that ply), the judgement marks of
// the move list, each player's counts and average loss, and the best move's
// arrows — on the board where the piece stands (Alice), first part and push
// (Avalanche). The server computes all of it (docs/API.md "Game review");
// nothing here judges a move.

import { http } from './api.js';
import { clear, el } from './dom.js';
import { BoardIndex, Position } from './fen.js';
import { t } from './i18n.js';

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

export interface ReviewPosition {
  cp: number | null;
  mate: number | null;
  white_expected: number;
  best: string[];
  best_san: string | null;
}

export interface ReviewMove {
  ply: number;
  uci: string;
  san: string;
  color: 'white' | 'black';
  loss: number;
  /** 0–100 (absent from reviews stored before accuracy existed). */
  accuracy?: number;
  judgement: Judgement | null;
}

export interface PlayerSummary {
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  average_loss: number;
  /** The game accuracy, 0–100 (the server's, docs/ANALYSIS.md); null without a move, absent from older reviews. */
  accuracy?: number | null;
}

export interface Review {
  variant: string;
  complete: boolean;
  positions: ReviewPosition[];
  moves: ReviewMove[];
  summary: { white: PlayerSummary; black: PlayerSummary };
}

/** The server's answer about a game's review (GET/POST /api/games/:id/review and the `review` message). */
export interface ReviewStatus {
  status: 'queued' | 'running' | 'done' | 'interrupted' | 'failed';
  done?: number;
  total?: number;
  review?: Review;
  error?: string;
}

/** The review's status as the server has it (GET /api/games/:id/review); rejects with 404 when never asked for. */
export function fetchReview(game: string): Promise<ReviewStatus> {
  return http<ReviewStatus>('GET', `/api/games/${encodeURIComponent(game)}/review`);
}

export const SYMBOL: Record<Judgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const W = 600;
const H = 120;

/** The graph's points: x by ply over the width, y from White's expected score (top = White wins). */
export function graphPoints(review: Review, width = W, height = H): { x: number; y: number }[] {
  const n = Math.max(1, review.positions.length - 1);
  return review.positions.map((p, i) => ({
    x: Math.round((i / n) * width * 10) / 10,
    y: Math.round((1 - Math.min(1, Math.max(0, p.white_expected))) * height * 10) / 10,
  }));
}

/** The text of a position's evaluation: "+0.34", "#3", "#-2", or "" when unknown. */
export function evalText(p: ReviewPosition | undefined): string {
  if (!p) return '';
  if (p.mate !== null && p.mate !== undefined) return `#${p.mate}`;
  if (p.cp !== null && p.cp !== undefined) return `${p.cp >= 0 ? '+' : ''}${(p.cp / 100).toFixed(2)}`;
  return '';
}

/**
 * The arrows of the engine's best move in the position after `ply` moves:
 * on the board of the piece that moves (Alice), and the push as a second
 * arrow (Avalanche "g1f3,e7e6").
 */
export function bestArrows(review: Review, ply: number, pos: Position): { board: BoardIndex; orig: string; dest: string; brush: string }[] {
  const best = review.positions[ply]?.best[0];
  if (!best) return [];
  const [first, push] = best.split(',');
  const orig = first.slice(0, 2);
  const board: BoardIndex = pos.pieces.get(orig)?.board ?? 0;
  const out = [{ board, orig, dest: first.slice(2, 4), brush: 'green' }];
  if (push) out.push({ board: 0, orig: push.slice(0, 2), dest: push.slice(2, 4), brush: 'blue' });
  return out;
}

/**
 * Adds each judged move's mark to the cells of a move list: the cell of ply
 * `p` is `.move[data-ply=p]`, or the one `cellOf(p)` finds (the analysis
 * board's tree, whose variations have plies too).
 */
export function markMoveList(
  box: HTMLElement,
  review: Review,
  cellOf: (ply: number) => HTMLElement | null = ply => box.querySelector<HTMLElement>(`.move[data-ply="${ply}"]`),
): void {
  for (const m of review.moves) {
    if (!m.judgement) continue;
    const cell = cellOf(m.ply);
    if (!cell || cell.querySelector('.judgement')) continue;
    cell.classList.add(`judged-${m.judgement}`);
    cell.appendChild(el('span', { class: 'judgement', title: t(`review.${m.judgement}`) }, SYMBOL[m.judgement]));
  }
}

/** The graph and the summary table, into `host`; `go(ply)` on a click in the graph. */
export function renderReview(host: HTMLElement, review: Review, shown: number, go: (ply: number) => void): void {
  clear(host);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'eval-graph');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('review.graph'));
  const pts = graphPoints(review);
  const area = document.createElementNS(ns, 'path');
  area.setAttribute('d', `M0 ${H} ` + pts.map(p => `L${p.x} ${p.y}`).join(' ') + ` L${W} ${H} Z`);
  area.setAttribute('class', 'eval-area');
  const mid = document.createElementNS(ns, 'line');
  for (const [k, v] of Object.entries({ x1: '0', y1: String(H / 2), x2: String(W), y2: String(H / 2), class: 'eval-mid' })) mid.setAttribute(k, v);
  svg.append(area, mid);
  for (const m of review.moves) {
    if (!m.judgement || !pts[m.ply]) continue;
    const dot = document.createElementNS(ns, 'circle');
    dot.setAttribute('cx', String(pts[m.ply].x));
    dot.setAttribute('cy', String(pts[m.ply].y));
    dot.setAttribute('r', '4');
    dot.setAttribute('class', `eval-dot ${m.judgement}`);
    svg.appendChild(dot);
  }
  if (pts[shown]) {
    const cur = document.createElementNS(ns, 'line');
    for (const [k, v] of Object.entries({ x1: String(pts[shown].x), y1: '0', x2: String(pts[shown].x), y2: String(H), class: 'eval-cursor' }))
      cur.setAttribute(k, v);
    svg.appendChild(cur);
  }
  svg.addEventListener('click', e => {
    const box = svg.getBoundingClientRect();
    const n = review.positions.length - 1;
    if (box.width > 0 && n > 0) go(Math.max(0, Math.min(n, Math.round(((e.clientX - box.left) / box.width) * n))));
  });
  const table = el('table', { class: 'review-summary' });
  const head = el('tr', {}, el('th', {}, ''));
  for (const k of ['inaccuracy', 'mistake', 'blunder'] as Judgement[]) head.appendChild(el('th', { scope: 'col' }, t(`review.${k}`)));
  head.appendChild(el('th', { scope: 'col' }, t('review.averageLoss')));
  head.appendChild(el('th', { scope: 'col' }, t('review.accuracy')));
  table.appendChild(head);
  for (const c of ['white', 'black'] as const) {
    const s = review.summary[c];
    table.appendChild(
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, t(`color.${c}`)),
        el('td', {}, String(s.inaccuracies)),
        el('td', {}, String(s.mistakes)),
        el('td', {}, String(s.blunders)),
        el('td', {}, `${s.average_loss.toFixed(1)} %`),
        el('td', { class: 'accuracy', 'data-color': c }, typeof s.accuracy === 'number' ? `${Math.round(s.accuracy)} %` : '–'),
      ),
    );
  }
  host.append(svg, el('div', { class: 'eval-now' }, evalText(review.positions[shown])), table);
}
