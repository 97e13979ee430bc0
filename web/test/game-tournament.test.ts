// The game page's tournament part: who may still go berserk (as the server
// allows it, so that the button is shown only when pressing it can work).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BerserkView, mayBerserk } from '../src/pages/game-tournament.ts';

function state(over: Partial<BerserkView> = {}): BerserkView {
  return {
    tournament: 'T1234567',
    status: 'live',
    ply: 0,
    time: { kind: 'realtime' },
    players: { white: { berserk: false }, black: { berserk: false } },
    ...over,
  };
}

test('before their own first move, both players of a tournament game may go berserk', () => {
  assert.equal(mayBerserk(state(), 'white'), true);
  assert.equal(mayBerserk(state(), 'black'), true);
  // White moved: Black has not yet
  assert.equal(mayBerserk(state({ ply: 1 }), 'white'), false);
  assert.equal(mayBerserk(state({ ply: 1 }), 'black'), true);
  assert.equal(mayBerserk(state({ ply: 2 }), 'black'), false);
  assert.equal(mayBerserk(state({ ply: 9 }), 'white'), false);
});

test('once only, and only a player of a live tournament game on a clock', () => {
  assert.equal(mayBerserk(state({ players: { white: { berserk: true }, black: { berserk: false } } }), 'white'), false, 'already berserk');
  assert.equal(mayBerserk(state({ players: { white: { berserk: true }, black: { berserk: false } } }), 'black'), true, "the opponent's choice is theirs");
  assert.equal(mayBerserk(state(), null), false, 'a spectator');
  assert.equal(mayBerserk(state({ tournament: null }), 'white'), false, 'not a tournament game');
  assert.equal(mayBerserk(state({ tournament: undefined }), 'white'), false, 'a server that does not say');
  assert.equal(mayBerserk(state({ status: 'over' }), 'white'), false, 'over');
  assert.equal(mayBerserk(state({ time: { kind: 'unlimited' } }), 'white'), false, 'no clock');
  // a state from a server without berserk: not yet berserk
  assert.equal(mayBerserk(state({ players: { white: {}, black: {} } }), 'black'), true);
});
