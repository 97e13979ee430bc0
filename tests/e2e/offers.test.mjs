// The game controls between two players: abort, rematch (colours swapped),
// draw offer and acceptance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, screenshot, startGame, useServerAndBrowser, waitPly, press } from './lib.mjs';

const env = useServerAndBrowser();

test('abort, rematch with colours swapped, draw by agreement', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    const first = await startGame(ann, bob, { variant: 'chess', color: 'white' });
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    // before Black's first move the game can still be aborted
    await press(bob.page, '[data-action="abort"]');
    for (const p of [ann.page, bob.page]) {
      await p.locator('.result-banner').waitFor({ state: 'visible' });
      assert.match(await p.locator('.result-banner').textContent(), /Game aborted/);
      // an aborted game has no score (no stray dash)
      assert.equal(await p.locator('.result-banner .result-score').count(), 0);
      assert.doesNotMatch(await p.locator('.result-banner').textContent(), /[–-]/);
    }

    // rematch: offered by Ann, accepted by Bob; both go to the new game, colours swapped
    await press(ann.page, '[data-action="rematch-offer"]');
    await bob.page.locator('[data-action="rematch-accept"]').waitFor();
    assert.match(await bob.page.locator('.controls').textContent(), /Your opponent wants a rematch/);
    await press(bob.page, '[data-action="rematch-accept"]');
    await ann.page.waitForURL(u => !u.pathname.endsWith(first) && /\/game\//.test(u.pathname));
    await bob.page.waitForURL(u => !u.pathname.endsWith(first) && /\/game\//.test(u.pathname));
    assert.equal(ann.page.url(), bob.page.url());
    await ann.page.locator('.game-board .cg-wrap.orientation-black').waitFor();
    await bob.page.locator('.game-board .cg-wrap.orientation-white').waitFor();

    await clickMove(bob.page, 'd2', 'd4');
    await waitPly(ann.page, 1);
    await clickMove(ann.page, 'd7', 'd5');
    await waitPly(bob.page, 2);
    // draw offer and acceptance
    await press(ann.page, '[data-action="draw-offer"]');
    await bob.page.locator('[data-action="draw-accept"]').waitFor();
    assert.match(await bob.page.locator('.controls').textContent(), /Your opponent offers a draw/);
    assert.equal(await ann.page.locator('[data-action="draw-offer"]').isDisabled(), true);
    await press(bob.page, '[data-action="draw-accept"]');
    for (const p of [ann.page, bob.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible' });
      assert.equal(await banner.getAttribute('data-result'), '1/2-1/2');
      assert.match(await banner.textContent(), /Draw.*by agreement/);
    }
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0);
    await screenshot(ann.page, 'draw-by-agreement');
  } finally {
    await closeAll(ann, bob);
  }
});
