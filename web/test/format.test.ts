import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, formatDays, playerName, remaining, reasonText, resultTitle } from '../src/format.ts';
import { setLang } from '../src/i18n.ts';

test('clock formatting', () => {
  assert.equal(formatClock(300000), '5:00');
  assert.equal(formatClock(62000), '1:02');
  assert.equal(formatClock(10000), '0:10');
  assert.equal(formatClock(9440), '0:09.4');
  assert.equal(formatClock(0), '0:00.0');
  assert.equal(formatClock(-5), '0:00.0');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatDays(3 * 86400000 + 5 * 3600000), '3 d 5 h');
  setLang('fr');
  assert.equal(formatDays(3 * 86400000 + 5 * 3600000), '3 j 5 h');
  assert.equal(formatDays(5 * 3600000 + 7 * 60000), '5 h 07');
  setLang('en');
});

test('the running clock counts down from the receipt of the state', () => {
  const clock = { white: 60000, black: 30000, running: 'white' as const, server_time: 0, first_move_deadline: null };
  assert.equal(remaining(clock, 'white', 1000, 3500), 57500);
  assert.equal(remaining(clock, 'black', 1000, 3500), 30000);
  assert.equal(remaining(clock, 'white', 0, 1e9), 0);
});

test('result and reason in both languages', () => {
  setLang('en');
  assert.equal(resultTitle('1-0', 'checkmate'), 'White wins');
  assert.equal(reasonText('1-0', 'checkmate'), 'by checkmate');
  assert.equal(reasonText('1/2-1/2', 'time forfeit'), 'time out, but the opponent cannot mate');
  assert.equal(reasonText('0-1', 'avalanche loss'), 'no move can be completed (every push is a self-check)');
  setLang('fr');
  assert.equal(resultTitle('0-1', 'time forfeit'), 'Victoire des Noirs');
  assert.equal(reasonText('0-1', 'time forfeit'), 'au temps');
  assert.equal(resultTitle('*', 'aborted'), 'Partie annulée');
  setLang('en');
});

test('player names: the computer with its level, the server default nickname translated', () => {
  setLang('fr');
  assert.equal(playerName({ name: 'Computer', computer: true, level: 4 }), 'Ordinateur niveau 4');
  assert.equal(playerName({ name: 'Anonymous', computer: false, level: null }), 'Anonyme');
  assert.equal(playerName({ name: 'Ann', computer: false, level: null }), 'Ann');
  setLang('en');
  assert.equal(playerName({ name: '', computer: false, level: null }), 'Anonymous');
});

test('time controls as shown in the lobby', async () => {
  const { formatTime } = await import('../src/format.ts');
  setLang('en');
  assert.equal(formatTime({ kind: 'realtime', minutes: 5, increment: 3 }), '5+3');
  assert.equal(formatTime({ kind: 'realtime', minutes: 0.5, increment: 0 }), '½+0');
  assert.equal(formatTime({ kind: 'correspondence', days: 3 }), '3 d/move');
  assert.equal(formatTime({ kind: 'unlimited' }), '∞');
  setLang('fr');
  assert.equal(formatTime({ kind: 'correspondence', days: 2 }), '2 j/coup');
  setLang('en');
});
