import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClockSync } from '../src/clock-sync.ts';

// The server's clock runs 5000 ms ahead of the local one in these tests.
const AHEAD = 5000;

test('clock sync: the tightest pong is kept, and the earliest reading never passes the true one', () => {
  const c = new ClockSync();
  assert.equal(c.earliest(1000), 1000 - 2000 - 1, 'before any pong: the guess less the default margin');
  // a ping held 400 ms on its way out, answered at once: its midpoint is 200 ms too late
  c.sample(10_000, 10_400 + AHEAD, 10_400);
  assert.equal(c.offset, AHEAD + 200);
  assert.equal(c.error, 200);
  // a quick one (20 ms round trip, server read in the middle) replaces it
  c.sample(20_000, 20_010 + AHEAD, 20_020);
  assert.equal(c.offset, AHEAD);
  assert.equal(c.error, 10);
  // a slower one later does not
  c.sample(30_000, 30_900 + AHEAD, 31_000);
  assert.equal(c.offset, AHEAD);
  // whenever the server read its clock inside the round trip, earliest() is at most the truth
  for (const [sent, read, back] of [
    [40_000, 40_000, 40_300],
    [50_000, 50_300, 50_300],
    [60_000, 60_001, 60_002],
  ]) {
    const s = new ClockSync();
    s.sample(sent, read + AHEAD, back);
    for (const local of [back, back + 1000]) assert.ok(s.earliest(local) <= local + AHEAD, `ping ${sent}-${back} read at ${read}`);
  }
});

test('clock sync: a stepped clock and a new connection start again', () => {
  const c = new ClockSync();
  c.sample(0, 10 + AHEAD, 20);
  // the local clock was set back an hour: the new bound excludes the kept one
  c.sample(3_600_000, 3_600_050 + AHEAD + 3_600_000, 3_600_100);
  assert.equal(c.offset, AHEAD + 3_600_000);
  assert.equal(c.error, 50);
  // a pong whose round trip came out negative says nothing
  c.sample(100, 200, 50);
  assert.equal(c.offset, AHEAD + 3_600_000);
  c.reset();
  assert.equal(c.error, Infinity);
  c.sample(1000, 1100 + AHEAD, 1400);
  assert.equal(c.offset, AHEAD - 100);
  assert.equal(c.error, 200);
});
