// The profile's tournaments: where each stands in a word, the player's rank
// among its players, in the page's language.
import './games-table.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, t } from '../src/i18n.ts';
import { rankText, statusText } from '../src/pages/profile-tournaments.ts';

test('a tournament to come, running, finished', () => {
  setLang('en');
  assert.deepEqual(['created', 'started', 'finished'].map(s => statusText(s as 'created')), ['To come', 'In progress', 'Finished']);
  setLang('fr');
  assert.deepEqual(['created', 'started', 'finished'].map(s => statusText(s as 'created')), ['À venir', 'En cours', 'Terminé']);
  setLang('en');
});

test('the rank among the players, and the score', () => {
  setLang('en');
  assert.equal(rankText({ player: { rank: 3, score: 4, results: 'WLW' }, players: 12 }), 'Rank 3 of 12');
  assert.equal(rankText({ player: { rank: 2, score: 0, results: '' }, players: 1 }), 'Rank 2 of 2', 'never more than the players');
  assert.equal(t('profile.tournamentScore', { score: 2 }), 'Score: 2');
  setLang('fr');
  assert.equal(rankText({ player: { rank: 1, score: 2, results: 'W' }, players: 2 }), 'Rang 1 sur 2');
  assert.equal(t('profile.tournamentScore', { score: 0 }), 'Total : 0');
  setLang('en');
});
