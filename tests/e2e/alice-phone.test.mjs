// e2e sizes: phone
// Alice on a phone (390x844, touch): one board large, the other as a live
// thumbnail beside the last moves; the clocks, both boards and the last moves
// are on the screen without scrolling; a tap on the thumbnail swaps the boards.
// Each board says which it is ("Board 1", "Board 2"), large or small, before
// and after a swap; a mate is shown on the board where it landed, large.
// Runs in the phone pass of the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PHONE, clickMove, closeAll, moveList, newPlayer, horizontalOverflow, press, screenshot, startGame, useServerAndBrowser, waitPly,
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

/** The labels of the large board and of the thumbnail, each whole (not cut) and on the screen. */
async function labels(page) {
  return page.evaluate(() => {
    const one = sel => {
      const e = document.querySelector(sel);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      const whole = e.scrollWidth <= e.clientWidth + 1 && r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 1;
      return { text: e.textContent, whole, board: e.parentElement.querySelector('.board-wrap')?.dataset.board };
    };
    return { large: one('.game-board .board-col .board-label'), thumb: one('.alice-thumb .board-col .board-label') };
  });
}

test('alice on a phone: both boards labelled, before and after a swap; the mate shown large where it landed', { skip: !PHONE && 'phone pass only', timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'alice', color: 'white' });
    assert.deepEqual(await labels(ann.page), { large: { text: 'Board 1', whole: true, board: 'a' }, thumb: { text: 'Board 2', whole: true, board: 'b' } });
    // the seed's transfer mate: 1.e4 d5 2.Be2 dxe4 3.Bb5#, the last two moves played on board 2
    // (each player brings board 2 up large to play there)
    await clickMove(ann.page, 'e2', 'e4', 'a');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'd7', 'd5', 'a');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'f1', 'e2', 'a');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'd5', 'e4', 'b');
    await waitPly(ann.page, 4);
    await bob.page.locator('.game-board .board-wrap[data-board="b"]').waitFor();
    // after a swap the labels still say which board is which
    assert.deepEqual(await labels(bob.page), { large: { text: 'Board 2', whole: true, board: 'b' }, thumb: { text: 'Board 1', whole: true, board: 'a' } });
    await clickMove(ann.page, 'e2', 'b5', 'b');
    for (const p of [ann.page, bob.page]) {
      await p.locator('.result-banner[data-termination="checkmate"]').waitFor();
      assert.deepEqual(await moveList(p), ['e4', 'd5', 'Be2', 'dxe4', 'Bb5#']);
      // the bishop came back to board 1 and mates there: board 1 is large on both phones, the check on it
      await p.locator('.game-board .board-wrap[data-board="a"]').waitFor();
      await p.locator('.game-board .board-wrap[data-board="a"] square.check').waitFor({ state: 'attached' });
      assert.deepEqual(await labels(p), { large: { text: 'Board 1', whole: true, board: 'a' }, thumb: { text: 'Board 2', whole: true, board: 'b' } });
      assert.equal(await horizontalOverflow(p), '', 'no horizontal scroll');
    }
    await screenshot(ann.page, 'alice-phone-mate');
    // the player may still look at board 2
    await press(ann.page, '.alice-thumb [data-action="swap-boards"]');
    await ann.page.locator('.game-board .board-wrap[data-board="b"]').waitFor();
    assert.equal((await labels(ann.page)).large.text, 'Board 2');
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0, [...ann.page.errors, ...bob.page.errors].join('\n'));
  } finally {
    await closeAll(ann, bob);
  }
});
