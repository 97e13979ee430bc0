import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLobbyDelta } from '../src/api.ts';

const seek = (id: string, created_at: number) => ({ id, created_at }) as never;
const game = (id: string, created_at: number) => ({ id, created_at, ply: 0, fen: 'start' }) as never;

test('lobby deltas: applied in order, newest first', () => {
  const st = { seq: 4, seeks: [seek('a', 1)], games: [game('g', 1)] };
  assert.ok(
    applyLobbyDelta(st, 5, [
      { op: 'seek_added', seek: seek('b', 2) },
      { op: 'seek_removed', id: 'a' },
      { op: 'game_started', game: game('h', 3) },
      { op: 'game_moved', id: 'g', ply: 7, fen: 'x' },
    ]),
  );
  assert.equal(st.seq, 5);
  assert.deepEqual(
    st.seeks.map(s => (s as { id: string }).id),
    ['b'],
  );
  assert.deepEqual(
    st.games.map(g => [(g as { id: string }).id, (g as { ply: number }).ply]),
    [
      ['h', 0],
      ['g', 7],
    ],
  );
  assert.ok(applyLobbyDelta(st, 6, [{ op: 'game_ended', id: 'h' }]));
  assert.equal(st.games.length, 1);
});

test('lobby deltas: a gap is refused (the client asks for a new snapshot)', () => {
  const st = { seq: 4, seeks: [], games: [] };
  assert.equal(applyLobbyDelta(st, 6, [{ op: 'seek_added', seek: seek('b', 2) }]), false);
  assert.equal(st.seq, 4);
  assert.equal(st.seeks.length, 0);
});
