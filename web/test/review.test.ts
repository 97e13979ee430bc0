// The computer analysis as the viewer draws it: graph points, evaluation
// texts, and the best move's arrows on the right board (Alice) with the push
// (Avalanche).
import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFen } from '../src/fen.ts';
import { bestArrows, evalText, graphPoints, type Review } from '../src/review-view.ts';

function review(positions: Partial<Review['positions'][number]>[]): Review {
  return {
    variant: 'chess',
    complete: true,
    positions: positions.map(p => ({ cp: null, mate: null, white_expected: 0.5, best: [], best_san: null, ...p })),
    moves: [],
    summary: {
      white: { inaccuracies: 0, mistakes: 0, blunders: 0, average_loss: 0 },
      black: { inaccuracies: 0, mistakes: 0, blunders: 0, average_loss: 0 },
    },
  };
}

test('graph: one point per position, White winning at the top', () => {
  const pts = graphPoints(review([{ white_expected: 0.5 }, { white_expected: 1 }, { white_expected: 0 }]), 100, 50);
  assert.deepEqual(pts, [
    { x: 0, y: 25 },
    { x: 50, y: 0 },
    { x: 100, y: 50 },
  ]);
  // out-of-range values are clamped, a single position does not divide by zero
  assert.deepEqual(graphPoints(review([{ white_expected: 2 }]), 100, 50), [{ x: 0, y: 0 }]);
});

test('evaluation texts: pawns with a sign, mates with #', () => {
  assert.equal(evalText({ cp: 34, mate: null, white_expected: 0.6, best: [], best_san: null }), '+0.34');
  assert.equal(evalText({ cp: -120, mate: null, white_expected: 0.2, best: [], best_san: null }), '-1.20');
  assert.equal(evalText({ cp: null, mate: -2, white_expected: 0, best: [], best_san: null }), '#-2');
  assert.equal(evalText(undefined), '');
});

test('best move arrows: Alice on the board of the piece, Avalanche with its push', () => {
  const alice = parseFen('rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3');
  const r = review([{ best: ['f3e5', 'e7e6'] }]);
  assert.deepEqual(bestArrows(r, 0, alice), [{ board: 1, orig: 'f3', dest: 'e5', brush: 'green' }]);
  const av = parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.deepEqual(bestArrows(review([{ best: ['g1f3,e7e6'] }]), 0, av), [
    { board: 0, orig: 'g1', dest: 'f3', brush: 'green' },
    { board: 0, orig: 'e7', dest: 'e6', brush: 'blue' },
  ]);
  assert.deepEqual(bestArrows(review([{ best: [] }]), 0, av), []);
});
