// Alice chess in two browser contexts: the seed's mate 1.e4 d5 2.Be2 dxe4
// 3.Bb5#, the last move a transfer from board 2 back to board 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove, clickSquare, closeAll, moveList, newPlayer, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

const pieces = (page, board, cls) => page.locator(`.game-page .board-wrap[data-board="${board}"] piece.${cls}:not(.ghost)`).count();

test('alice: two boards, pieces pass through the looking glass, transfer mate', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'alice', color: 'white' });
    assert.equal(await ann.page.locator('.game-page .board-wrap').count(), 2);
    assert.equal(await pieces(ann.page, 'a', 'white'), 16);
    assert.equal(await pieces(ann.page, 'b', 'white'), 0);

    await clickMove(ann.page, 'e2', 'e4', 'a');
    await waitPly(bob.page, 1);
    // the pawn went to board 2 on both screens
    for (const p of [ann.page, bob.page]) {
      // Bob sees it move on board 1, then slide to board 2
      await p.waitForFunction(() => document.querySelectorAll('.board-wrap[data-board="b"] piece.white.pawn:not(.ghost)').length === 1);
      assert.equal(await pieces(p, 'a', 'white.pawn'), 7);
    }

    await clickMove(bob.page, 'd7', 'd5', 'a');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'f1', 'e2', 'a');
    await waitPly(bob.page, 3);
    // Black's pawn on board 2 captures on board 2 and comes back to board 1
    await clickSquare(bob.page, 'd5', 'b');
    // (on a phone board 2 is now the large one, board 1 the thumbnail)
    await bob.page.locator('.board-wrap[data-board="b"] square.move-dest').first().waitFor();
    assert.ok((await bob.page.locator('.board-wrap[data-board="b"] square.move-dest').count()) >= 1);
    assert.equal(await bob.page.locator('.board-wrap[data-board="a"] square.move-dest').count(), 0);
    await clickSquare(bob.page, 'e4', 'b');
    await waitPly(ann.page, 4);
    // Black took a pawn: a pawn and +1 beside Black, nothing beside White
    for (const p of [ann.page, bob.page]) {
      await p.locator('.game-side .material[data-color="black"] .material-points', { hasText: '+1' }).waitFor({ state: 'attached' });
      assert.equal(await p.locator('.game-side .material[data-color="white"] .material-points').count(), 0);
    }
    await ann.page.waitForFunction(() => document.querySelectorAll('.board-wrap[data-board="a"] piece.black.pawn:not(.ghost)').length === 8);

    // the bishop on board 2: its destinations are shown on board 2
    await clickSquare(ann.page, 'e2', 'b');
    await ann.page.locator('.board-wrap[data-board="b"] square.move-dest').first().waitFor();
    const dests = await ann.page.locator('.board-wrap[data-board="b"] square.move-dest').count();
    assert.ok(dests >= 4, `bishop destinations on board 2: ${dests}`);
    await clickSquare(ann.page, 'b5', 'b');

    for (const p of [ann.page, bob.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible' });
      assert.equal(await banner.getAttribute('data-result'), '1-0');
      assert.equal(await banner.getAttribute('data-termination'), 'checkmate');
      assert.deepEqual(await moveList(p), ['e4', 'd5', 'Be2', 'dxe4', 'Bb5#']);
      // the bishop is back on board 1, next to the checked king
      await p.waitForFunction(() => document.querySelectorAll('.board-wrap[data-board="a"] piece.white.bishop:not(.ghost)').length === 2);
      await p.locator('.board-wrap[data-board="a"] square.check').waitFor();
      assert.equal(await p.locator('.game-page square.check').count(), 1);
    }
    // no seed letter appears as a piece name anywhere in the move list
    assert.doesNotMatch((await moveList(ann.page)).join(' '), /[SUOCTL]/);
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0, [...ann.page.errors, ...bob.page.errors].join('\n'));
    await screenshot(ann.page, 'alice-transfer-mate');
  } finally {
    await closeAll(ann, bob);
  }
});
