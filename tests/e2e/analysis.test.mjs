// The analysis board: free moves from the server's legal list and the
// engine's evaluation when the server offers them (docs/API.md);
// otherwise the page says so and still shows the position of any variant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, screenshot, useServerAndBrowser, press } from './lib.mjs';

const env = useServerAndBrowser();

test('analysis board', { timeout: 60000 }, async () => {
  const probe = await fetch(`${env.server.url}/api/analysis`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'chess', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: [] }),
  });
  const offered = probe.ok;
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    // from a game's "Analyse this position" link: an Alice position with a piece on board 2
    const fen = 'rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3';
    await page.goto(`/analysis?variant=alice&fen=${encodeURIComponent(fen)}`);
    await page.locator('.analysis-page .board-wrap[data-board="b"] piece.white.knight').waitFor();
    assert.equal(await page.locator('.analysis-page .board-wrap').count(), 2);
    if (!offered) {
      await page.locator('.form-msg', { hasText: 'does not offer' }).waitFor();
    } else {
      await clickMove(page, 'f3', 'e5', 'b');
      await page.locator('.analysis-page .move-list .move').first().waitFor();
      await press(page, '[data-action="evaluate"]');
      await page.locator('.eval', { hasText: /Evaluation|Mate/ }).waitFor({ timeout: 15000 });
    }
    // switching the variant resets the board
    await page.selectOption('select[name="variant"]', 'chess');
    await page.waitForFunction(() => document.querySelectorAll('.analysis-page .board-wrap').length === 1);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'analysis-board');
  } finally {
    await closeAll(ann);
  }
});
