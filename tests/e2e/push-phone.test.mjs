// e2e sizes: phone
// Avalanche by touch on narrow screens: the pawn tapped is the pawn pushed, at
// 390, 600 and 768 px wide, and on a phone held in landscape. The board must not move between the first part
// and the push (the prompt sits in a fixed place), and chessground must map the
// tap to the square under the finger. Runs in the phone pass of the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PHONE, clickMove, clickSquare, closeAll, dragMove, moveList, newPlayer, horizontalOverflow, screenshot, startGame,
  useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();
const skip = !PHONE && 'touch widths: run in the phone pass';

const boardBox = page => page.locator('.game-board .board-wrap[data-board="a"] cg-board').boundingBox();

for (const [width, height] of [
  [390, 844],
  [600, 960],
  [768, 1024],
  [844, 390], // a phone held in landscape
]) {
  test(`avalanche by touch at ${width}x${height}: the pawn tapped is the pawn pushed`, { skip, timeout: 90000 }, async () => {
    const device = { viewport: { width, height }, hasTouch: true, isMobile: true };
    const ann = await newPlayer(env.browser, env.server.url, 'en-US', device);
    const bob = await newPlayer(env.browser, env.server.url, 'en-US', device);
    try {
      await startGame(ann, bob, { variant: 'avalanche', color: 'white' });
      const before = await boardBox(ann.page);
      // the whole board is on the screen, and so are both clocks
      assert.ok(before.x >= 0 && before.y >= 0 && before.x + before.width <= width && before.y + before.height <= height, JSON.stringify(before));
      for (const c of await ann.page.locator('.clock:visible').all()) {
        const b = await c.boundingBox();
        assert.ok(b.y + b.height <= height && b.x + b.width <= width, `clock on screen: ${JSON.stringify(b)}`);
      }
      assert.equal(await ann.page.locator('.clock:visible').count(), 2);
      await clickMove(ann.page, 'g1', 'f3');
      await ann.page.locator('.game-board square.pushable').first().waitFor();
      await ann.page.locator('.prompt-slot.active').waitFor();
      // every black pawn can be pushed, and each is marked
      assert.equal(await ann.page.locator('.game-board square.pushable').count(), 8);
      // the board has not moved under the finger
      assert.deepEqual(await boardBox(ann.page), before);
      await clickSquare(ann.page, 'e7');
      await waitPly(bob.page, 1);
      assert.deepEqual(await moveList(bob.page), ['Nf3,e6']);

      // Black, with the board turned: first part by taps, push of the d-pawn
      await clickMove(bob.page, 'b8', 'c6');
      await bob.page.locator('.game-board square.pushable').first().waitFor();
      await clickSquare(bob.page, 'd2');
      await waitPly(ann.page, 2);
      // a first part dragged with the finger, then the push tapped
      await dragMove(ann.page, 'e2', 'e4');
      await ann.page.locator('.game-board square.pushable').first().waitFor();
      await clickSquare(ann.page, 'h7');
      await waitPly(bob.page, 3);
      assert.deepEqual(await moveList(bob.page), ['Nf3,e6', 'Nc6,d3', 'e4,h6']);
      for (const p of [ann.page, bob.page]) assert.equal(await horizontalOverflow(p), '', `no horizontal scroll at ${width} px`);
      assert.equal(ann.page.errors.length + bob.page.errors.length, 0, [...ann.page.errors, ...bob.page.errors].join('\n'));
      await screenshot(ann.page, `avalanche-touch-${width}x${height}`);
    } finally {
      await closeAll(ann, bob);
    }
  });
}
