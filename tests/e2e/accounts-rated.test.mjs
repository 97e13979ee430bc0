// Rated play in the browser: two players sign up, play a rated game found
// through a lobby seek, the game page shows both rating changes, and both
// profiles list the rated game with its change and draw the rating graph;
// then the two find each other through a quick pairing pool. Skipped,
// saying so, by a server without the accounts API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPlayers, clickMove, closeAll, horizontalOverflow, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

test('a rated game between two accounts: rating changes, profile list and graph; a pool pairs them', { timeout: 150000 }, async t => {
  if ((await fetch(`${env.server.url}/api/account`)).status === 404) return t.skip('no accounts API on this server');
  const [ann, bob] = await accountPlayers(env, 'ann', 'bob');
  try {

    // The lobby's "Rated" box is ticked for a logged-in player; the seek shows the rating.
    await ann.page.goto('/');
    await ann.page.locator('#f-rated:checked').waitFor({ state: 'attached' });
    const id = await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 5, increment: 3 });
    // Both seats show the provisional rating of new players.
    await ann.page.locator('.name-box .rating:visible', { hasText: '1500?' }).first().waitFor();
    // Each move reaches the other side before it answers: the same four moves
    // (not premoves racing the opponent's) however loaded the machine is.
    await clickMove(ann.page, 'f2', 'f3');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'g2', 'g4');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'd8', 'h4');

    // The result banner says rated and gives both changes: Bob won, Ann lost.
    const banner = ann.page.locator('.result-banner');
    // The changes come in a later state, once the accounts' worker has rated
    // the game: on a loaded machine that took over 15 s once.
    await banner.locator('.rating-changes').waitFor({ timeout: 60000 });
    assert.match(await banner.locator('.result-rated').textContent(), /Rated game/);
    const annDiff = await banner.locator('[data-rating-diff="white"]').textContent();
    const bobDiff = await bob.page.locator('.result-banner [data-rating-diff="black"]').textContent();
    assert.match(annDiff, /^−\d+$/, annDiff);
    assert.match(bobDiff, /^\+\d+$/, bobDiff);
    await screenshot(ann.page, 'rated-game-end');

    // The profiles: the rated game with the same change, and the rating graph of chess blitz.
    for (const [p, name, diff] of [
      [ann.page, ann.account, annDiff],
      [bob.page, bob.account, bobDiff],
    ]) {
      await p.goto(`/@/${name}`);
      const row = p.locator(`.profile-game[data-game="${id}"]`);
      await row.waitFor({ timeout: 15000 });
      assert.equal((await row.locator('.diff').textContent()).trim(), diff.trim());
      await p.locator('.rating-graph[data-variant="chess"][data-speed="blitz"] svg').waitFor();
      assert.equal(await horizontalOverflow(p), '', 'no horizontal scroll');
    }
    await screenshot(bob.page, 'rated-profile-graph');

    // A quick pairing pool: both tap Alice 3+2 and land in the same rated game.
    for (const p of [ann.page, bob.page]) {
      await p.goto('/');
      await p.selectOption('#f-variant', 'alice');
      await p.locator('[data-pool="alice-3+2"]').waitFor();
    }
    await press(ann.page, '[data-pool="alice-3+2"]');
    await ann.page.locator('.pool-status', { hasText: 'rated' }).waitFor();
    await screenshot(ann.page, 'rated-pool-waiting');
    await press(bob.page, '[data-pool="alice-3+2"]');
    await ann.page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/, { timeout: 15000 });
    await bob.page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/, { timeout: 15000 });
    assert.equal(ann.page.url().split('/').pop(), bob.page.url().split('/').pop());
    await ann.page.locator('.game-board cg-board').first().waitFor();
  } finally {
    await closeAll(ann, bob);
  }
});

test('an anonymous player is told why a rated seek is refused', { timeout: 60000 }, async t => {
  if ((await fetch(`${env.server.url}/api/account`)).status === 404) return t.skip('no accounts API on this server');
  const carl = await newPlayer(env.browser, env.server.url);
  try {
    await carl.page.goto('/');
    await carl.page.locator('#f-rated').check();
    await press(carl.page, '[data-action="create-seek"]');
    await carl.page.locator('.create .form-msg', { hasText: 'Log in to play rated games' }).waitFor();
  } finally {
    await closeAll(carl);
  }
});
