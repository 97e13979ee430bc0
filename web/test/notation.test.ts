// Typed moves and displayed SAN. The legal lists and their SAN below were
// printed by the core (`echecs moves --variant V --fen F`).
import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMoves } from '../src/moves.ts';
import { displaySan, matchTyped } from '../src/notation.ts';

/** "uci SAN;uci SAN;..." as the core prints it, to the two parallel lists the server sends. */
function legal(list: string) {
  const pairs = list.split(';').filter(Boolean).map(x => x.split(' '));
  return { moves: parseMoves(pairs.map(p => p[0])), sans: pairs.map(p => p[1]) };
}

const START = legal(
  'b1a3 Na3;b1c3 Nc3;g1f3 Nf3;g1h3 Nh3;a2a3 a3;b2b3 b3;c2c3 c3;d2d3 d3;e2e3 e3;f2f3 f3;g2g3 g3;h2h3 h3;a2a4 a4;b2b4 b4;c2c4 c4;d2d4 d4;e2e4 e4;f2f4 f4;g2g4 g4;h2h4 h4',
);
// 4k3/8/8/8/8/8/8/1N2KN2 w: two knights reach d2
const KNIGHTS = legal('e1d1 Kd1;e1d2 Kd2;e1e2 Ke2;e1f2 Kf2;b1d2 Nbd2;b1a3 Na3;b1c3 Nc3;f1d2 Nfd2;f1h2 Nh2;f1e3 Ne3;f1g3 Ng3');
// r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq: castling, promotions, Kd1 and Rd1 both legal
const CASTLE = legal(
  'e1d1 Kd1;e1f1 Kf1;e1d2 Kd2;e1e2 Ke2;e1f2 Kf2;e1g1 O-O;e1c1 O-O-O;a1b1 Rb1;a1c1 Rc1;a1d1 Rd1;a1a2 Ra2;a1a8 Rxa8+;h1f1 Rf1;h1g1 Rg1;h1h8 Rxh8+;b7b8q b8=Q+;b7b8r b8=R+;b7b8b b8=B;b7b8n b8=N;b7a8q bxa8=Q+;b7a8r bxa8=R+;b7a8b bxa8=B;b7a8n bxa8=N',
);
const typed = (l: ReturnType<typeof legal>, s: string, lang: 'en' | 'fr' = 'en') => {
  const r = matchTyped(s, l.moves, l.sans, lang);
  return r.kind === 'move' ? r.move.raw : r.kind === 'none' ? 'none' : `${r.kind}:${r.moves.map(m => m.raw).join(' ')}`;
};

test('English and French letters name the same moves', () => {
  assert.equal(typed(START, 'Nf3'), 'g1f3');
  assert.equal(typed(START, 'Cf3', 'fr'), 'g1f3');
  assert.equal(typed(START, 'Cf3', 'en'), 'g1f3', 'French letters are understood in the English interface');
  assert.equal(typed(START, 'Nf3', 'fr'), 'g1f3', 'English letters in the French interface');
  assert.equal(typed(START, '♘f3'), 'g1f3');
  assert.equal(typed(START, 'e4'), 'e2e4');
  assert.equal(typed(START, 'Pe4', 'fr'), 'e2e4');
  assert.equal(typed(START, 'e4+'), 'e2e4');
  assert.equal(typed(START, 'g1f3'), 'g1f3');
  assert.equal(typed(START, 'g1-f3'), 'g1f3');
  assert.equal(typed(START, 'Nf6'), 'none');
  assert.equal(typed(START, 'Ke2'), 'none');
  assert.equal(typed(START, ''), 'none');
});

test('lower case where it is unambiguous; b c d f are files first', () => {
  assert.equal(typed(START, 'nf3'), 'g1f3');
  assert.equal(typed(START, 'cf3', 'fr'), 'g1f3', 'no c-pawn reaches f3: the French knight');
  assert.equal(typed(START, 'nc3'), 'b1c3');
  assert.equal(typed(START, 'c3'), 'c2c3');
});

test('R is read in the interface language: rook in English, king in French', () => {
  assert.equal(typed(CASTLE, 'Rd1', 'en'), 'a1d1');
  assert.equal(typed(CASTLE, 'Rd1', 'fr'), 'e1d1');
  assert.equal(typed(CASTLE, 'Td1', 'fr'), 'a1d1');
  assert.equal(typed(CASTLE, 'Kd1', 'fr'), 'e1d1');
  assert.equal(typed(CASTLE, 'O-O'), 'e1g1');
  assert.equal(typed(CASTLE, '0-0-0'), 'e1c1');
  assert.equal(typed(CASTLE, 'b8=Q'), 'b7b8q');
  assert.equal(typed(CASTLE, 'b8D', 'fr'), 'b7b8q');
  assert.equal(typed(CASTLE, 'bxa8=N'), 'b7a8n');
  assert.equal(typed(CASTLE, 'ba8C', 'fr'), 'b7a8n');
  assert.equal(typed(CASTLE, 'Txa8', 'fr'), 'a1a8');
  assert.equal(typed(CASTLE, 'b7a8q'), 'b7a8q');
  assert.match(typed(CASTLE, 'b8'), /^ambiguous:/, 'a promotion without its piece');
});

test('disambiguation: too little is ambiguous, more than needed is fine', () => {
  assert.match(typed(KNIGHTS, 'Nd2'), /^ambiguous:b1d2 f1d2$/);
  assert.equal(typed(KNIGHTS, 'Nbd2'), 'b1d2');
  assert.equal(typed(KNIGHTS, 'Cfd2', 'fr'), 'f1d2');
  assert.equal(typed(KNIGHTS, 'Nf1e3'), 'f1e3');
  assert.equal(typed(KNIGHTS, 'Ne3'), 'f1e3');
});

test('Alice: two pawns reaching e4 from both boards are told apart by their squares', () => {
  // 4k3/8/8/8/8/4S3/4P3/4K3 w: a pawn on e2 (board 1) and one on e3 (board 2)
  const a = legal('e1d1 Kd1;e1f1 Kf1;e1d2 Kd2;e1f2 Kf2;e2e4 e2e4;e3e4 e3e4');
  assert.match(typed(a, 'e4'), /^ambiguous:/);
  assert.equal(typed(a, 'e2e4'), 'e2e4');
  assert.equal(typed(a, 'e3e4'), 'e3e4');
});

test('Avalanche: pushes, the first part alone, pending choices', () => {
  const av = legal('g1f3,e7e6 Nf3,e6;g1f3,d7d6 Nf3,d6;e2e4,e7e6 e4,e6;b1c3 Nc3');
  assert.equal(typed(av, 'Nf3,e6'), 'g1f3,e7e6');
  assert.equal(typed(av, 'Cf3,e6', 'fr'), 'g1f3,e7e6');
  assert.equal(typed(av, 'Nf3 d6'), 'g1f3,d7d6');
  assert.equal(typed(av, 'g1f3,d7d6'), 'g1f3,d7d6');
  assert.equal(typed(av, 'Nf3,d7d6'), 'g1f3,d7d6');
  assert.equal(typed(av, 'Nf3'), 'first:g1f3,e7e6 g1f3,d7d6');
  assert.equal(typed(av, 'cf3', 'fr'), 'first:g1f3,e7e6 g1f3,d7d6');
  assert.equal(typed(av, 'Nc3'), 'b1c3', 'no push possible: the first part is the move');
  assert.equal(typed(av, 'Nf3,h6'), 'none');
  // P7/8/6k1/8/8/8/5PPP/6K1 w: a white pawn pushed to a8 waits for its piece
  const pend = legal('q:g1f1 Q:Kf1;q:a8a1 Q:Qa1;q:a8e4 Q:Qe4+;r:g1f1 R:Kf1;r:a8a1 R:Ra1;b:g1f1 B:Kf1;n:g1f1 N:Kf1;n:a8b6 N:Nb6');
  assert.equal(typed(pend, 'Q:Qa1'), 'q:a8a1');
  assert.equal(typed(pend, 'D:Da1', 'fr'), 'q:a8a1');
  assert.equal(typed(pend, 'Qa1'), 'q:a8a1', 'the piece letter names the choice');
  assert.equal(typed(pend, 'r:a8a1'), 'r:a8a1');
  assert.equal(typed(pend, 'T:Ta1', 'fr'), 'r:a8a1');
  assert.equal(typed(pend, 'Qe4'), 'q:a8e4');
  assert.match(typed(pend, 'Kf1'), /^ambiguous:/, 'the king move exists for each choice');
  assert.equal(typed(pend, 'N:Kf1'), 'n:g1f1');
  assert.equal(typed(pend, 'C:Rf1', 'fr'), 'n:g1f1');
});

test('coordinates only when the server sends no SAN', () => {
  const moves = parseMoves(['e2e4', 'g1f3']);
  assert.deepEqual(matchTyped('g1f3', moves, [], 'en'), { kind: 'move', move: moves[1] });
  assert.equal(matchTyped('Nf3', moves, [], 'en').kind, 'none');
  assert.equal(matchTyped('e4', moves, [], 'en').kind, 'none');
});

test('display: figurines by default, letters per language', () => {
  assert.equal(displaySan('Nf3', 'figurine', 'en', 'white'), '♘f3');
  assert.equal(displaySan('Qh4#', 'figurine', 'fr', 'black'), '♛h4#');
  assert.equal(displaySan('exd8=Q+', 'figurine', 'en', 'white'), 'exd8=♕+');
  assert.equal(displaySan('O-O-O', 'figurine', 'en', 'white'), 'O-O-O');
  assert.equal(displaySan('Nf3', 'letters', 'en', 'white'), 'Nf3');
  assert.equal(displaySan('Nf3', 'letters', 'fr', 'white'), 'Cf3');
  assert.equal(displaySan('Bb5#', 'letters', 'fr', 'white'), 'Fb5#');
  assert.equal(displaySan('Kxe2', 'letters', 'fr', 'black'), 'Rxe2');
  assert.equal(displaySan('Rxa8+', 'letters', 'fr', 'white'), 'Txa8+');
  assert.equal(displaySan('Q:Qxf1,g6#', 'letters', 'fr', 'black'), 'D:Dxf1,g6#');
  assert.equal(displaySan('hxg1=N,e4', 'letters', 'fr', 'black'), 'hxg1=C,e4');
  // what is displayed in letters can be typed back
  for (const san of ['Nf3', 'e4', 'Nc3']) {
    const fr = displaySan(san, 'letters', 'fr', 'white');
    const r = matchTyped(fr, START.moves, START.sans, 'fr');
    assert.equal(r.kind === 'move' && START.sans[START.moves.indexOf(r.move)], san);
  }
});
