import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartGeometry } from '../src/rating-chart.ts';
import { diffText, isOwnProfile, ratingText } from '../src/account-api.ts';
import { dictionaries } from '../src/i18n.ts';

test('rating chart: higher ratings are drawn higher, games evenly spaced, inside the box', () => {
  const g = chartGeometry(
    [
      { rating: 1500, at: 1 },
      { rating: 1620, at: 2 },
      { rating: 1580, at: 50 },
      { rating: 1700, at: 51 },
    ],
    300,
    100,
    10,
  );
  assert.equal(g.points.length, 4);
  assert.ok(g.points[1].y < g.points[0].y, 'a gain goes up');
  assert.ok(g.points[2].y > g.points[1].y, 'a loss goes down');
  const dx = g.points.map((p, i) => (i ? p.x - g.points[i - 1].x : 0)).slice(1);
  assert.ok(dx.every(d => Math.abs(d - dx[0]) < 0.2), 'evenly spaced');
  for (const p of g.points) assert.ok(p.x >= 10 && p.x <= 290 && p.y >= 10 && p.y <= 90, JSON.stringify(p));
  assert.ok(g.min <= 1500 && g.max >= 1700);
  assert.match(g.path, /^M10 [\d.]+ L/);
  assert.ok(g.ticks.length >= 2 && g.ticks.every(t => t.rating % 50 === 0));
});

test('rating chart: one game or a flat history still draws (no division by zero)', () => {
  const one = chartGeometry([{ rating: 1432, at: 5 }], 200, 80);
  assert.equal(one.points[0].x, 100);
  assert.ok(Number.isFinite(one.points[0].y));
  assert.ok(one.max - one.min >= 100);
  const flat = chartGeometry(
    [
      { rating: 1500, at: 1 },
      { rating: 1500, at: 2 },
    ],
    200,
    80,
  );
  assert.ok(flat.points.every(p => Number.isFinite(p.y)));
  assert.equal(flat.points[0].y, flat.points[1].y);
  assert.equal(chartGeometry([], 200, 80).path, '');
});

test('ratings: provisional marked with "?", changes signed', () => {
  assert.equal(ratingText({ rating: 1523, provisional: true }), '1523?');
  assert.equal(ratingText({ rating: 1810, provisional: false }), '1810');
  assert.equal(diffText(12), '+12');
  assert.equal(diffText(-8), '−8');
  assert.equal(diffText(0), '±0');
});

test('every accounts error reason has a text in both languages', () => {
  const reasons = ['username_length', 'username_chars', 'username_reserved', 'username_taken', 'password_short', 'password_long',
    'password_utf8', 'password_common', 'password_is_username', 'invalid_credentials', 'too_many_attempts', 'too_many_signups',
    'not_logged_in', 'session_expired', 'wrong_password', 'cross_site', 'user_not_found', 'accounts_busy', 'too_many_requests'];
  for (const r of reasons) for (const l of ['en', 'fr'] as const) assert.ok(`err.${r}` in dictionaries[l], `${l} err.${r}`);
});

test('after logging in, only a path of this site is followed', async () => {
  const { safeNext } = await import('../src/pages/account.ts');
  assert.equal(safeNext('/@/Ann'), '/@/Ann');
  assert.equal(safeNext('/game/abc?x=1'), '/game/abc?x=1');
  for (const bad of [null, '', 'https://evil.example', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])
    assert.equal(safeNext(bad), '/', String(bad));
});

test('own profile: the logged-in user, whatever the case of the name; never for a visitor', () => {
  assert.equal(isOwnProfile('AnnLee', { username: 'AnnLee' }), true);
  assert.equal(isOwnProfile('annlee', { username: 'AnnLee' }), true);
  assert.equal(isOwnProfile('AnnLe', { username: 'AnnLee' }), false);
  assert.equal(isOwnProfile('AnnLee', null), false);
});
