// A game against the computer, moves typed in SAN at the keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, moveList, newPlayer, playComputer, press, screenshot, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

test('computer: the engine answers moves typed in SAN; resign', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await playComputer(page, { variant: 'chess', mode: 'unlimited', color: 'white', level: '1' });
    assert.match(await page.locator('.player.top .name').textContent(), /Computer level 1/);
    // the name is shown whole (it wraps rather than being cut), wherever it is shown
    for (const name of await page.locator('.name:visible').all())
      assert.ok(await name.evaluate(e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1), 'a name is cut off');

    // a bad move is refused locally, with a message
    await page.fill('.san-input', 'Ke5');
    await page.press('.san-input', 'Enter');
    assert.match(await page.locator('.input-msg').textContent(), /Not a legal move: Ke5/);

    await page.fill('.san-input', 'e4');
    await page.press('.san-input', 'Enter');
    await waitPly(page, 2, 20000); // the computer answered
    await page.fill('.san-input', 'Nc3');
    await page.press('.san-input', 'Enter');
    await waitPly(page, 4, 20000);
    const list = await moveList(page);
    assert.equal(list[0], 'e4');
    assert.equal(list[2], 'Nc3');
    assert.equal(list.length, 4);

    // flip the board: remembered for this game after a reload, then back
    await press(page, '[data-action="flip"]');
    await page.locator('.game-board .cg-wrap.orientation-black').waitFor();
    await page.reload();
    await page.locator('.game-board .cg-wrap.orientation-black').waitFor();
    await waitPly(page, 4);
    await page.keyboard.press('f');
    await page.locator('.game-board .cg-wrap.orientation-white').waitFor();

    await press(page, '[data-action="resign"]');
    await press(page, '[data-action="resign"]');
    const banner = page.locator('.result-banner');
    await banner.waitFor({ state: 'visible' });
    assert.equal(await banner.getAttribute('data-result'), '0-1');
    assert.match(await banner.textContent(), /Black wins.*by resignation/);
    // the viewer: step back through the game
    if (await page.locator('[data-action="first"]:not([disabled])').count()) {
      await press(page, '[data-action="first"]');
      await page.waitForFunction(() => document.querySelectorAll('.game-board piece.white:not(.ghost)').length === 16);
      await press(page, '[data-action="next"]');
      assert.equal(await page.locator('.game-side .move-list .move.current').getAttribute('data-san'), 'e4');
      await press(page, '[data-action="last"]');
    }
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'computer-game');
  } finally {
    await closeAll(ann);
  }
});
