// Flag fall: a 6-second game; the clocks tick locally, the server ends the
// game on time although nobody moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

test('flag fall: White lets the clock run out and loses on time', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 0.1, increment: 0 });
    // sound is on for a new player (nothing pressed): moves, low time and the end are heard
    assert.equal(await ann.page.locator('[data-action="sound"]').getAttribute('aria-pressed'), 'true', 'sound on by default');
    assert.equal(await ann.page.locator('.game-side .clock-white').textContent(), '0:06.0');
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    // White's clock runs and is shown ticking down
    const ms = async () => Number(await bob.page.locator('.game-side .clock-white').getAttribute('data-ms'));
    await bob.page.locator('.game-side .clock-white.running').waitFor({ state: 'attached' });
    const t0 = await ms();
    await bob.page.waitForTimeout(1200);
    const t1 = await ms();
    assert.ok(t1 < t0 - 800, `clock ticks: ${t0} -> ${t1}`);

    for (const p of [ann.page, bob.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible', timeout: 15000 });
      assert.equal(await banner.getAttribute('data-termination'), 'time forfeit');
      assert.equal(await banner.getAttribute('data-result'), '0-1');
      assert.match(await banner.textContent(), /Black wins.*on time/);
      assert.equal(await p.locator('.game-side .clock-white').textContent(), '0:00.0');
    }
    const sounds = await ann.page.evaluate(() => [...window.echecs.sounds]);
    for (const k of ['move', 'lowtime', 'end']) assert.ok(sounds.includes(k), `sound ${k} in ${sounds}`);
    await screenshot(ann.page, 'flag-fall');
  } finally {
    await closeAll(ann, bob);
  }
});
