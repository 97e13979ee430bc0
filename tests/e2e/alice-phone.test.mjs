// e2e sizes: phone
// Alice on a phone (390x844, touch): one board large, the other as a live
// thumbnail beside the last moves; the clocks, both boards and the last moves
// are on the screen without scrolling; a tap on the thumbnail swaps the boards.
// Runs in the phone pass of the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PHONE, clickMove, closeAll, newPlayer, horizontalOverflow, press, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

async function onScreen(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  const vp = page.viewportSize();
  return !!box && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width + 1;
}

test('alice on a phone: one board large, the other a live thumbnail, no scrolling', { skip: !PHONE && 'phone pass only', timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'alice', color: 'white' });
    for (const p of [ann.page, bob.page]) {
      assert.equal(await p.locator('.game-board .board-wrap').count(), 1, 'one board large');
      assert.equal(await p.locator('.alice-thumb .board-wrap').count(), 1, 'the other as a thumbnail');
      const big = await p.locator('.game-board .board-wrap cg-board').boundingBox();
      assert.ok(big.width >= 370, `the large board fills the width: ${big.width}`);
    }
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    // the pawn went through the looking glass: it is on the thumbnail (board 2) on both phones
    for (const p of [ann.page, bob.page])
      await p.waitForFunction(() => document.querySelectorAll('.alice-thumb .board-wrap[data-board="b"] piece.white.pawn:not(.ghost)').length === 1);
    await clickMove(bob.page, 'd7', 'd5');
    await waitPly(ann.page, 2);
    for (const p of [ann.page, bob.page]) {
      // nothing scrolled, and everything a player needs is on the screen
      assert.equal(await p.evaluate(() => window.scrollY), 0);
      for (const sel of ['.player-bar.top .clock', '.player-bar.bottom .clock', '.game-board cg-board', '.alice-thumb cg-board', '.last-moves .last-move:last-child'])
        assert.ok(await onScreen(p, sel), `${sel} on the screen`);
      assert.match(await p.locator('.last-moves').textContent(), /1\. e4.*1… d5/);
      assert.equal(await horizontalOverflow(p), '', 'no horizontal scroll');
    }
    // a tap on the thumbnail shows board 2 large (and board 1 as the thumbnail)
    await press(ann.page, '.alice-thumb [data-action="swap-boards"]');
    await ann.page.locator('.game-board .board-wrap[data-board="b"]').waitFor();
    await ann.page.locator('.alice-thumb .board-wrap[data-board="a"]').waitFor();
    assert.equal(await ann.page.locator('.game-board .board-wrap[data-board="b"] piece.white.pawn').count(), 1);
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0, [...ann.page.errors, ...bob.page.errors].join('\n'));
    await screenshot(ann.page, 'alice-phone');
  } finally {
    await closeAll(ann, bob);
  }
});
