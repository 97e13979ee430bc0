import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIAL_FEN, parseFen } from '../src/fen.ts';
import {
  dests, findMove, matchFirstPart, matchInput, matchingFirstPart, moveSan, parseMove, parseMoves,
  pendingChoices, promotionsFor, pushesAfter, withChoice,
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

test('SAN derived from the position and the legal list', () => {
  const start = parseFen(INITIAL_FEN);
  const moves = parseMoves(['e2e4', 'g1f3', 'b1c3']);
  assert.equal(moveSan(start, moves[0], moves), 'e4');
  assert.equal(moveSan(start, moves[1], moves), 'Nf3');
  // disambiguation: two knights reach d2
  const pos = parseFen('4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1');
  const kn = parseMoves(['b1d2', 'f1d2', 'e1e2']);
  assert.equal(moveSan(pos, kn[0], kn), 'Nbd2');
  assert.equal(moveSan(pos, kn[1], kn), 'Nfd2');
  // castling, capture, promotion
  const c = parseFen('r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1');
  const cm = parseMoves(['e1g1', 'e1c1', 'b7a8q', 'b7b8n']);
  assert.equal(moveSan(c, cm[0], cm), 'O-O');
  assert.equal(moveSan(c, cm[1], cm), 'O-O-O');
  assert.equal(moveSan(c, cm[2], cm), 'bxa8=Q');
  assert.equal(moveSan(c, cm[3], cm), 'b8=N');
  // Avalanche
  const av = parseMoves(['q:g1f3,e7e6', 'g1f3,e7e6']);
  assert.equal(moveSan(start, av[1], av), 'Nf3,e6');
  assert.equal(moveSan(start, av[0], av), 'Q:Nf3,e6');
});

test('keyboard input: SAN, UCI, check marks, Alice seed letters, Avalanche pushes', () => {
  const start = parseFen(INITIAL_FEN);
  const moves = parseMoves(['e2e4', 'g1f3', 'b1c3']);
  assert.equal(matchInput(start, moves, 'Nf3')?.raw, 'g1f3');
  assert.equal(matchInput(start, moves, 'e4+')?.raw, 'e2e4');
  assert.equal(matchInput(start, moves, 'g1f3')?.raw, 'g1f3');
  assert.equal(matchInput(start, moves, 'Nf6'), undefined);
  assert.equal(matchInput(start, moves, ''), undefined);
  // Alice: seed style names the piece by its board letter: Sxe4, Cb5#
  const alice = parseFen('rnbqkbnr/ppp1pppp/8/3S4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2');
  const am = parseMoves(['d5e4']);
  // black pawn d5 on board B captures on e4 (the S is a white pawn here; we only need the roles)
  const alice2 = parseFen('rnbqkbnr/ppp1pppp/8/3s4/4S3/8/PPPPCPPP/RNBQK1NR b KQkq - 1 2');
  assert.equal(matchInput(alice2, am, 'Sxe4')?.raw, 'd5e4');
  assert.equal(matchInput(alice2, am, 'dxe4')?.raw, 'd5e4');
  const bm = parseMoves(['e2b5']);
  const alice3 = parseFen('rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPPCPPP/RNBQK1NR w KQkq - 0 3');
  assert.equal(matchInput(alice3, bm, 'Cb5#')?.raw, 'e2b5');
  assert.equal(matchInput(alice3, bm, 'Bb5')?.raw, 'e2b5');
  void alice;
  // Avalanche
  const av = parseMoves(['g1f3,e7e6', 'g1f3,d7d6', 'e2e4,e7e6']);
  assert.equal(matchInput(start, av, 'Nf3,e6')?.raw, 'g1f3,e7e6');
  assert.equal(matchInput(start, av, 'Nf3 d6')?.raw, 'g1f3,d7d6');
  assert.equal(matchInput(start, av, 'g1f3,d7d6')?.raw, 'g1f3,d7d6');
  assert.equal(matchInput(start, av, 'Nf3'), undefined);
  assert.equal(matchFirstPart(start, av, 'Nf3').length, 2);
  const pend = parseMoves(['q:a8a1', 'r:a8a1', 'q:g1f1']);
  const pp = parseFen('P3k3/8/8/8/8/8/5PPP/6K1 w - - 0 30');
  assert.equal(moveSan(pp, pend[0], pend), 'Q:Qa1');
  assert.equal(moveSan(pp, pend[1], pend), 'R:Ra1');
  assert.equal(matchInput(pp, pend, 'Q:Qa1')?.raw, 'q:a8a1');
  assert.equal(matchInput(pp, pend, 'r:a8a1')?.raw, 'r:a8a1');
});
