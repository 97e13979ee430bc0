// Pure pieces of the pages: material from a FEN, the clocks of a past
// position from moves[].clock, the settings kept valid.
import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFen } from '../src/fen.ts';
import { materialEdge } from '../src/material.ts';
import { clocksAt } from '../src/pages/game-parts.ts';
import { sanitize } from '../src/settings.ts';
import type { GameState } from '../src/api.ts';

test('material: the pieces one side has more of, and the points', () => {
  // after 1.e4 d5 2.exd5 Qxd5 3.Nc3: level
  const even = parseFen('rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3');
  assert.deepEqual(materialEdge(even, 'white'), { extra: [], points: 0 });
  // White a knight and a pawn up, Black has nothing extra
  const up = parseFen('rnbqkb1r/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.deepEqual(materialEdge(up, 'white'), { extra: ['knight', 'pawn'], points: 4 });
  assert.deepEqual(materialEdge(up, 'black'), { extra: [], points: 0 });
  // Alice: both boards count (the knight on f3 of board 2 is White's)
  const alice = parseFen('rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3');
  assert.deepEqual(materialEdge(alice, 'black'), { extra: ['pawn'], points: 1 });
});

function game(moves: { clock?: number | null }[], time: GameState['time']): GameState {
  return {
    initial_fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    time,
    moves: moves.map((m, i) => ({ uci: `m${i}`, san: `m${i}`, ...m })),
  } as unknown as GameState;
}

test('clocks of a past position: each side keeps the time its last move left it', () => {
  const st = game([{ clock: 299000 }, { clock: 297500 }, { clock: 290000 }], { kind: 'realtime', minutes: 5, increment: 0 });
  assert.deepEqual(clocksAt(st, 0), { white: 300000, black: 300000 });
  assert.deepEqual(clocksAt(st, 1), { white: 299000, black: 300000 });
  assert.deepEqual(clocksAt(st, 2), { white: 299000, black: 297500 });
  assert.deepEqual(clocksAt(st, 3), { white: 290000, black: 297500 });
  // a server that records no clock, or a game without one: nothing to show
  assert.equal(clocksAt(game([{}, {}], { kind: 'realtime', minutes: 5, increment: 0 }), 1), undefined);
  assert.equal(clocksAt(game([{ clock: null }], { kind: 'unlimited' }), 1), undefined);
});

test('settings: unknown or broken values fall back to the defaults', () => {
  assert.deepEqual(sanitize(null), sanitize({}));
  const s = sanitize({ notation: 'letters', board: 'green', pieces: 'fontawesome', boardScale: 7, sound: 'yes', confirmCorrespondence: false });
  assert.equal(s.notation, 'letters');
  assert.equal(s.board, 'green');
  assert.equal(s.pieces, 'fontawesome');
  assert.equal(s.boardScale, 1, 'clamped');
  assert.equal(s.sound, true, 'not a boolean: the default (on)');
  assert.equal(sanitize({}).sound, true, 'a new player hears the game');
  assert.equal(sanitize({ sound: false }).sound, false, 'the player switched it off: kept');
  assert.equal(s.confirmCorrespondence, false);
  assert.equal(sanitize({ board: 'purple', notation: 'runes' }).board, 'brown');
  assert.equal(sanitize({ notation: 'runes' }).notation, 'figurine');
  assert.equal(sanitize({ boardScale: 0.1 }).boardScale, 0.5);
  // a set offered by an older version (Staunty, dropped: its licence is not free)
  assert.equal(sanitize({ pieces: 'staunty', board: 'blue' }).pieces, 'cburnett');
  assert.equal(sanitize({ pieces: 'staunty', board: 'blue' }).board, 'blue', 'the other settings are kept');
});

test('the sound of a move, from its SAN', async () => {
  const { moveSound } = await import('../src/sound.ts');
  assert.equal(moveSound('Nf3'), 'move');
  assert.equal(moveSound('exd5'), 'capture');
  assert.equal(moveSound('Qxf7#'), 'check');
  assert.equal(moveSound('Nf3,e6+'), 'check');
  assert.equal(moveSound('Nxe5,d6'), 'capture');
});

test('server errors in the user language, with their field, values and detail', async () => {
  const { errorText } = await import('../src/errors.ts');
  const { setLang } = await import('../src/i18n.ts');
  const { ApiError } = await import('../src/api.ts');
  setLang('fr');
  const range = new ApiError(400, 'bad_request', 'level must be between 1 and 8', { reason: 'number_range', field: 'level', params: { min: 1, max: 8 } });
  assert.equal(errorText(range), 'Ce nombre doit être compris entre 1 et 8.');
  const stip = new ApiError(400, 'bad_request', "stipulation 'h#2.7': only '.5' may follow", { reason: 'bad_stipulation', field: 'stipulation' });
  assert.match(errorText(stip), /^Cet énoncé ne peut pas être lu : stipulation 'h#2\.7'/);
  setLang('en');
  assert.equal(errorText({ reason: 'field_missing', field: 'variant', message: "missing field 'variant'" }), 'A field is missing: variant.');
});
