import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFen } from '../src/fen.ts';
import {
  dests, findMove, matchingFirstPart, parseMove, parseMoves, pendingChoices, promotionsFor, pushesAfter, withChoice,
} from '../src/moves.ts';

test('parseMove reads every form of the coordinate grammar', () => {
  assert.deepEqual(parseMove('e2e4'), { raw: 'e2e4', from: 'e2', to: 'e4' });
  assert.deepEqual(parseMove('e7e8q'), { raw: 'e7e8q', from: 'e7', to: 'e8', promotion: 'q' });
  assert.deepEqual(parseMove('g1f3,e7e6'), { raw: 'g1f3,e7e6', from: 'g1', to: 'f3', push: { from: 'e7', to: 'e6' } });
  assert.deepEqual(parseMove('q:g1f3,e7e6'), {
    raw: 'q:g1f3,e7e6', choice: 'q', from: 'g1', to: 'f3', push: { from: 'e7', to: 'e6' },
  });
  assert.deepEqual(parseMove('b7b8n,c3c2'), {
    raw: 'b7b8n,c3c2', from: 'b7', to: 'b8', promotion: 'n', push: { from: 'c3', to: 'c2' },
  });
  assert.throws(() => parseMove('e9e4'));
  assert.throws(() => parseMove('e2e4,zz'));
});

test('destinations come from the legal list only', () => {
  const moves = parseMoves(['e2e4', 'e2e3', 'g1f3', 'g1h3', 'e1g1']);
  const d = dests(moves);
  assert.deepEqual(d.get('e2'), ['e4', 'e3']);
  assert.deepEqual(d.get('g1'), ['f3', 'h3']);
  assert.deepEqual(d.get('e1'), ['g1']);
  assert.equal(d.has('d2'), false);
});

test('Alice: destinations are shown on the board where the piece stands', () => {
  // white knight on board B (f3), pawns on board A
  const pos = parseFen('rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3');
  const moves = parseMoves(['f3e5', 'f3g5', 'd2d4', 'e2e4', 'd1a4']);
  const a = dests(moves, pos, 0);
  const b = dests(moves, pos, 1);
  assert.deepEqual([...b.keys()], ['f3']);
  assert.deepEqual(b.get('f3'), ['e5', 'g5']);
  assert.deepEqual([...a.keys()].sort(), ['d1', 'd2', 'e2']);
});

test('Avalanche: first-part destinations, pushes after a first part, no push', () => {
  const list = ['g1f3,e7e6', 'g1f3,d7d6', 'g1f3,a7a6', 'e2e4,e7e6', 'e2e4,d7d6'];
  const moves = parseMoves(list);
  assert.deepEqual(dests(moves).get('g1'), ['f3']);
  const cands = matchingFirstPart(moves, 'g1', 'f3');
  assert.equal(cands.length, 3);
  assert.deepEqual(pushesAfter(cands).map(p => p.from), ['e7', 'd7', 'a7']);
  assert.equal(findMove(cands, { from: 'd7', to: 'd6' })!.raw, 'g1f3,d7d6');
  assert.equal(findMove(cands, { from: 'h7', to: 'h6' }), undefined);
  // no push possible: the first part alone
  const alone = parseMoves(['g1f3', 'b1c3']);
  const c2 = matchingFirstPart(alone, 'g1', 'f3');
  assert.deepEqual(pushesAfter(c2), []);
  assert.equal(findMove(c2)!.raw, 'g1f3');
});

test('Avalanche: pending promotion choices and own promotions', () => {
  const moves = parseMoves(['q:a8a1,e7e6', 'q:g1f1', 'r:a8a2', 'n:a8b6,e7e6', 'b:a8b7']);
  assert.deepEqual(pendingChoices(moves), ['q', 'r', 'b', 'n']);
  assert.deepEqual(withChoice(moves, 'n').map(m => m.raw), ['n:a8b6,e7e6']);
  assert.deepEqual(pendingChoices(parseMoves(['e2e4'])), []);
  const promo = parseMoves(['b7b8q,c3c2', 'b7b8r,c3c2', 'b7b8b,c3c2', 'b7b8n,c3c2', 'b7b8q,d4d3']);
  assert.deepEqual(promotionsFor(promo, 'b7', 'b8'), ['q', 'r', 'b', 'n']);
  assert.deepEqual(pushesAfter(matchingFirstPart(promo, 'b7', 'b8', 'q')).map(p => p.to), ['c2', 'd3']);
  assert.deepEqual(promotionsFor(promo, 'c3', 'c2'), []);
});
