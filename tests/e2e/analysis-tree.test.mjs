// The analysis board's move tree: a different move starts a variation shown
// in brackets, it can become the main line, keyboard navigation, take back,
// and the PGN export with the variation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const moves = page => page.locator('.analysis-page .move-list .move');
const current = page => page.locator('.analysis-page .move-list .move.current').getAttribute('data-san');

test('analysis tree: variations, promote, keys, take back, PGN', { timeout: 60000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await page.goto('/analysis?variant=chess');
    await page.locator('.analysis-page .board-wrap[data-board="a"] piece.white.pawn').first().waitFor();
    await clickMove(page, 'e2', 'e4');
    await moves(page).nth(0).waitFor();
    await clickMove(page, 'e7', 'e5');
    await moves(page).nth(1).waitFor();
    await clickMove(page, 'g1', 'f3');
    await moves(page).nth(2).waitFor();
    // back two moves, then another answer for Black: a variation
    await press(page, '[data-action="prev"]');
    await page.waitForFunction(() => document.querySelector('.move.current')?.getAttribute('data-san') === 'e5');
    await press(page, '[data-action="prev"]');
    await page.waitForFunction(() => document.querySelector('.move.current')?.getAttribute('data-san') === 'e4');
    await clickMove(page, 'c7', 'c5');
    await page.locator('.analysis-page .move-list .variation .move', { hasText: 'c5' }).waitFor();
    assert.equal(await current(page), 'c5');
    assert.equal(await moves(page).count(), 4);
    // the keyboard walks the current line
    if (!page.touch) {
      await page.locator('.analysis-page h1').click();
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => document.querySelector('.move.current')?.getAttribute('data-san') === 'e4');
      await page.keyboard.press('End');
      await page.waitForFunction(() => document.querySelector('.move.current')?.getAttribute('data-san') === 'Nf3');
      await page.locator('.analysis-page .move-list .move[data-san="c5"]').click();
    }
    // c5 becomes the main line, e5 Nf3 the variation
    await press(page, '[data-action="promote"]');
    await page.locator('.analysis-page .move-list .variation .move', { hasText: 'e5' }).waitFor();
    await press(page, '[data-action="export-pgn"]');
    await page.waitForFunction(() => document.querySelector('.export-box:not([hidden])')?.value.includes('1. e4 c5 (1... e5 2. Nf3) *'));
    // take back the current move: c5 leaves the tree, e5 is the main line again
    await press(page, '[data-action="undo"]');
    await page.waitForFunction(() => document.querySelectorAll('.analysis-page .move-list .move').length === 3);
    assert.equal(await page.locator('.analysis-page .move-list .variation').count(), 0);
    assert.match(await page.inputValue('.fen-row input[readonly][aria-label="Link"]'), /moves=e2e4/);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(ann);
  }
});
