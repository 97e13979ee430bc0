import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIAL_FEN, boardPlacement, parseFen, pendingPromotionSquare, kingSquare, FenError, writePlacement } from '../src/fen.ts';

test('orthodox FEN: pieces, side, castling, counters', () => {
  const p = parseFen('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2');
  assert.equal(p.pieces.size, 32);
  assert.deepEqual(p.pieces.get('e4'), { role: 'pawn', color: 'white', board: 0 });
  assert.deepEqual(p.pieces.get('e8'), { role: 'king', color: 'black', board: 0 });
  assert.equal(p.turn, 'white');
  assert.equal(p.castling, 'KQkq');
  assert.equal(p.ep, 'e6');
  assert.equal(p.fullmove, 2);
  assert.equal(boardPlacement(p, 0), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR');
  assert.equal(boardPlacement(p, 1), '8/8/8/8/8/8/8/8');
});

test('Alice FEN: the seed letters S U O C T L go to board B with standard roles', () => {
  // RULES.md: after 1.Nf3 d5 2.c4 dxc4
  const p = parseFen('rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3');
  assert.deepEqual(p.pieces.get('f3'), { role: 'knight', color: 'white', board: 1 });
  assert.deepEqual(p.pieces.get('c4'), { role: 'pawn', color: 'black', board: 0 });
  assert.equal(boardPlacement(p, 1), '8/8/8/8/8/5N2/8/8');
  assert.equal(boardPlacement(p, 0), 'rnbqkbnr/ppp1pppp/8/8/2p5/8/PP1PPPPP/RNBQKB1R');
  // every letter, both colours
  const all = parseFen('lt6/8/8/8/8/8/8/SUOCTL2 b - - 0 1');
  const roles = ['pawn', 'rook', 'knight', 'bishop', 'queen', 'king'];
  ['a1', 'b1', 'c1', 'd1', 'e1', 'f1'].forEach((sq, i) =>
    assert.deepEqual(all.pieces.get(sq), { role: roles[i], color: 'white', board: 1 }),
  );
  assert.deepEqual(all.pieces.get('a8'), { role: 'king', color: 'black', board: 1 });
  assert.deepEqual(all.pieces.get('b8'), { role: 'queen', color: 'black', board: 1 });
  // no seed letter ever reaches chessground
  for (const b of [0, 1] as const) assert.doesNotMatch(boardPlacement(all, b), /[sSuUoOcCtTlL]/);
  assert.equal(boardPlacement(all, 1), 'kq6/8/8/8/8/8/8/PRNBQK2');
});

test('kings and the Avalanche pending promotion', () => {
  const p = parseFen('P3k3/8/8/8/8/8/5PPP/6K1 w - - 0 30');
  assert.equal(pendingPromotionSquare(p), 'a8');
  assert.equal(kingSquare(p, 'black'), 'e8');
  assert.equal(pendingPromotionSquare(parseFen(INITIAL_FEN)), undefined);
  // a pawn of the side not to move is not a pending choice of the mover
  assert.equal(pendingPromotionSquare(parseFen('P3k3/8/8/8/8/8/8/6K1 b - - 0 30')), undefined);
});

test('malformed FEN is rejected', () => {
  assert.throws(() => parseFen('8/8/8 w - - 0 1'), FenError);
  assert.throws(() => parseFen('9/8/8/8/8/8/8/8 w - - 0 1'), FenError);
  assert.throws(() => parseFen('xnbqkbnr/8/8/8/8/8/8/8 w - - 0 1'), FenError);
});

test('writePlacement writes back what parseFen read, Alice letters for board B', () => {
  for (const fen of [INITIAL_FEN, 'rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3', 'lt6/8/8/8/8/8/8/SUOCTL2 b - - 0 1'])
    assert.equal(writePlacement(parseFen(fen).pieces), fen.split(' ')[0]);
  assert.equal(writePlacement(new Map()), '8/8/8/8/8/8/8/8');
});
