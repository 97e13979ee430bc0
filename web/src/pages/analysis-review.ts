// The review of the game on the analysis board opened from it (`?game=`):
// the same evaluation graph, summary and move marks as on the game page
// (review-view.ts draws them, the server judged every move). The marks go on
// the game's own moves wherever they are in the tree (a variation promoted
// over them included); a click in the graph goes to that position of the
// game, the cursor follows the board while it shows a position of the game.

import { el } from '../dom.js';
import { t } from '../i18n.js';
import { Review, fetchReview, markMoveList, renderReview } from '../review-view.js';
import type { MoveTree, Path } from '../tree.js';

export class AnalysisReview {
  readonly element = el('section', { class: 'analysis-review', hidden: '' });
  private review: Review | null = null;
  /** The game's moves (coordinates), as the server gave them. */
  private gameMoves: string[] = [];

  constructor(
    /** Called with the path of a position of the game that a click in the graph chose. */
    private go: (path: Path) => void,
  ) {}

  /** Loads the game's review (nothing shown when it was never asked for or is not done). */
  load(game: string, moves: string[], onLoad: () => void): void {
    this.gameMoves = moves;
    fetchReview(game).then(
      s => {
        if (s.status !== 'done' || !s.review) return;
        this.review = s.review;
        onLoad();
      },
      () => undefined, // 404: no review of this game
    );
  }

  /** The path of the game's position after `ply` moves in the tree (as far as the tree still has the game's moves). */
  private gamePath(tree: MoveTree, ply: number): Path {
    const path: Path = [];
    let node = tree.root;
    for (const uci of this.gameMoves.slice(0, ply)) {
      const i = node.children.findIndex(c => c.uci === uci);
      if (i < 0) break;
      path.push(i);
      node = node.children[i];
    }
    return path;
  }

  /** Redraws the graph (its cursor on the position shown, if it is one of the game's) and marks the move list. */
  update(tree: MoveTree, list: HTMLElement): void {
    const review = this.review;
    if (!review) return;
    this.element.hidden = false;
    const here = tree.path;
    const onGame = here.length <= this.gameMoves.length && this.gamePath(tree, here.length).join('.') === here.join('.');
    const graph = el('div', { class: 'review-graph' });
    renderReview(graph, review, onGame ? Math.min(here.length, review.positions.length - 1) : -1, ply => this.go(this.gamePath(tree, ply)));
    this.element.replaceChildren(el('h3', {}, t('review.title')), graph);
    markMoveList(list, review, ply => {
      const path = this.gamePath(tree, ply);
      return path.length === ply ? list.querySelector<HTMLElement>(`.move[data-path="${path.join('.')}"]`) : null;
    });
  }
}
