import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountEntry, isAccountAnswer, puzzleRatingText, ratingDiffText } from '../src/puzzle-rating.ts';
import { dictionaries } from '../src/i18n.ts';

const player = { rating: 1642.4, deviation: 271.6, volatility: 0.09, provisional: true };

test('puzzle rating: an answer that says `rated` is the account’s, any other the browser’s', () => {
  const account = { id: 'c1', result: 'solved' as const, player, rating_diff: 142, rated: true, puzzles: 3 };
  assert.ok(isAccountAnswer(account));
  assert.deepEqual(accountEntry(account), { rating: 1642, rd: 272, puzzles: 3, provisional: true });
  // played before: the account's rating, unchanged, still the account's
  const again = { ...account, rating_diff: 0, rated: false };
  assert.ok(isAccountAnswer(again));
  assert.equal(accountEntry(again)?.rating, 1642);
  // anonymous: the browser keeps it
  const browser = { id: 'c1', result: 'failed' as const, player, rating_diff: -40 };
  assert.equal(isAccountAnswer(browser), false);
  assert.equal(accountEntry(browser), null);
  assert.equal(accountEntry({ id: 'c1', result: 'partial' }), null);
});

test('puzzle rating: the account’s shown when logged in, the browser’s otherwise', () => {
  const entry = { rating: 1320, rd: 80, puzzles: 40, provisional: false };
  assert.equal(puzzleRatingText(true, entry, player), '1320');
  assert.equal(puzzleRatingText(true, undefined, player), '1500?', 'an account that never played: a new rating, not the browser’s');
  assert.equal(puzzleRatingText(false, entry, player), '1642?');
  assert.equal(puzzleRatingText(false, entry, { ...player, provisional: false }), '1642');
  assert.equal(puzzleRatingText(false, undefined, null), '1500?');
});

test('puzzle rating: the change after an attempt', () => {
  assert.equal(ratingDiffText({ id: 'c', result: 'solved', rating_diff: 12 }), ' (+12)');
  assert.equal(ratingDiffText({ id: 'c', result: 'failed', rating_diff: -8 }), ' (−8)');
  assert.equal(ratingDiffText({ id: 'c', result: 'failed', rating_diff: 0, rated: false }), ' (±0)');
  assert.equal(ratingDiffText({ id: 'c', result: 'solved' }), '');
});

test('puzzle rating: every new text in both languages', () => {
  for (const key of ['puzzles.ratingAccount', 'puzzles.ratingNoteAccount', 'puzzles.notRated', 'puzzles.playedBefore', 'profile.puzzleRatings', 'profile.noPuzzles', 'profile.puzzles.one', 'profile.puzzles.other'] as const) {
    assert.ok(dictionaries.en[key], key);
    assert.ok(dictionaries.fr[key], key);
    assert.notEqual(dictionaries.en[key], dictionaries.fr[key], key);
  }
  assert.match(dictionaries.fr['puzzles.ratingAccount'], /\{game\}.*\{rating\}/);
});
