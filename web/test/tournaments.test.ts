// The tournament pages' pure pieces: the daily arenas' names, the clocks to
// a start or an end, the line of a tournament, the games that counted double,
// a Swiss's rounds.
import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../src/i18n.ts';
import { countdown, doubledGames, roundMark, roundText, tournamentMeta, tournamentName, whenText } from '../src/pages/tournament-parts.ts';
import type { WireSwissRound } from '../src/protocol.ts';

test('a daily arena is named from its game in the page language; others keep their name', () => {
  setLang('en');
  assert.equal(tournamentName({ name: '', daily: true, variant: 'alice' }), 'Daily Alice chess arena');
  assert.equal(tournamentName({ name: 'Friday blitz', daily: false, variant: 'chess' }), 'Friday blitz');
  setLang('fr');
  assert.equal(tournamentName({ name: '', daily: true, variant: 'avalanche' }), 'Arène quotidienne – Échecs Avalanche');
  setLang('en');
});

test('the game, the clock, rated or casual', () => {
  setLang('en');
  assert.equal(tournamentMeta({ variant: 'chess', time: { kind: 'realtime', minutes: 3, increment: 2 }, rated: true }), 'Chess · 3+2 · Rated');
  setLang('fr');
  assert.equal(tournamentMeta({ variant: 'alice', time: { kind: 'realtime', minutes: 5, increment: 0 }, rated: false }), 'Échecs Alice · 5+0 · Amical');
  setLang('en');
});

test('countdowns to the second, in days and hours from a day', () => {
  setLang('en');
  assert.equal(countdown(7000), '0:07');
  assert.equal(countdown(6001), '0:07', 'a started second is still to wait');
  assert.equal(countdown(299000), '4:59');
  assert.equal(countdown(3723000), '1:02:03');
  assert.equal(countdown(0), '0:00');
  assert.equal(countdown(-5000), '0:00');
  assert.equal(countdown(2 * 86400000 + 5 * 3600000 + 1000), '2 d 5 h');
  setLang('fr');
  assert.equal(countdown(86400000 + 3600000), '1 j 1 h');
  setLang('en');
});

test('where a tournament stands: to its start, to its end, over', () => {
  setLang('en');
  const x = { starts_at: 100000, ends_at: 100000 + 3600000 };
  assert.equal(whenText({ ...x, status: 'created' }, 40000), 'Starts in 1:00');
  // the start is past but the server has not ticked yet
  assert.equal(whenText({ ...x, status: 'created' }, 100500), 'Starting…');
  assert.equal(whenText({ ...x, status: 'started' }, 100000), 'Ends in 1:00:00');
  assert.equal(whenText({ ...x, status: 'started' }, x.ends_at + 1), 'Ending…');
  assert.equal(whenText({ ...x, status: 'finished' }, 0), 'Finished');
  setLang('fr');
  assert.equal(whenText({ ...x, status: 'created' }, 40000), 'Commence dans 1:00');
  setLang('en');
});

test('the games played on fire (after two wins in a row) counted double', () => {
  assert.deepEqual(doubledGames(''), []);
  assert.deepEqual(doubledGames('WW'), [false, false]);
  assert.deepEqual(doubledGames('WWWDL'), [false, false, true, true, false]);
  assert.deepEqual(doubledGames('WLWWLW'), [false, false, false, false, true, false]);
  assert.deepEqual(doubledGames('DWWW'), [false, false, false, true]);
});

test('a Swiss: its round in the clock line, its rounds as marks and in words', () => {
  setLang('en');
  const x = { status: 'started' as const, starts_at: 0, ends_at: null, kind: 'swiss' as const, round: 2, rounds: 5, next_round_at: null };
  assert.equal(whenText(x, 1000), 'Round 2 of 5');
  assert.equal(whenText({ ...x, next_round_at: 9000 }, 1000), 'Round 3 in 0:08');
  assert.equal(whenText({ ...x, status: 'finished', ends_at: 5000 }, 9000), 'Finished');
  assert.equal(tournamentMeta({ variant: 'chess', time: { kind: 'realtime', minutes: 3, increment: 2 }, rated: true, kind: 'swiss', rounds: 5 }), 'Swiss, 5 rounds · Chess · 3+2 · Rated');
  assert.deepEqual(
    [{ kind: 'played', points: 1 }, { kind: 'played', points: 0.5 }, { kind: 'played', points: 0 }, { kind: 'bye' }, { kind: 'forfeit_win' }, { kind: 'forfeit_loss' }, { kind: 'absent' }, { kind: 'live' }].map(r =>
      roundMark(r as WireSwissRound),
    ),
    ['1', '½', '0', 'B', '+', '−', '–', '*'],
  );
  assert.equal(roundText({ kind: 'live', opponent: 'bob', color: 'white', game: 'g' }, 3), 'Round 3: White against bob');
  assert.equal(roundText({ kind: 'bye', points: 1 }, 2), 'Round 2: a bye (1 point)');
  setLang('fr');
  assert.equal(roundText({ kind: 'played', opponent: 'bob', color: 'black', points: 1 }, 3), 'Ronde 3 : les Noirs contre bob');
  assert.equal(whenText(x, 1000), 'Ronde 2 sur 5');
  setLang('en');
});
