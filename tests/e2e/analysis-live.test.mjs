// The analysis board's continuous analysis: switched on, the depth rises and
// two lines with distinct first moves are shown with an evaluation bar; a
// move on the board restarts it on the new position; a line clicked is
// played onto the board; hiding the tab stops the stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const depth = page => page.locator('.live-status').textContent().then(s => Number((s.match(/\d+/) ?? ['0'])[0]));

test('analysis board: continuous analysis with two lines', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    // count the analysis messages the page receives
    await page.addInitScript(() => {
      window.__analysis = 0;
      const Orig = window.WebSocket;
      window.WebSocket = class extends Orig {
        constructor(...a) {
          super(...a);
          this.addEventListener('message', e => {
            if (String(e.data).includes('"type":"analysis"')) window.__analysis += 1;
          });
        }
      };
    });
    await page.goto('/analysis?variant=chess');
    await page.locator('.analysis-page .board-wrap[data-board="a"] piece.white.pawn').first().waitFor();
    await press(page, '[data-action="analyse-live"]');
    await page.locator('.live-lines .live-line[data-multipv="2"]').waitFor({ timeout: 30000 });
    await page.waitForFunction(() => /\d+/.test(document.querySelector('.live-status')?.textContent ?? '') &&
      Number(document.querySelector('.live-status').textContent.match(/\d+/)[0]) >= 5, null, { timeout: 30000 });
    const first = await page.locator('.live-line').evaluateAll(ls => ls.map(l => l.getAttribute('data-move')));
    assert.equal(first.length, 2);
    assert.notEqual(first[0], first[1]);
    assert.equal(await page.locator('.eval-bar').isVisible(), true);
    assert.match(await page.locator('.live-line').first().textContent(), /^[+-]\d+\.\d\d 1\./);

    // a move on the board: the analysis starts again on the new position (Black to move)
    await page.evaluate(() => document.querySelector('.game-board').scrollIntoView({ block: 'center' }));
    await clickMove(page, 'e2', 'e4');
    await page.locator('.analysis-page .move-list .move').first().waitFor();
    await page.waitForFunction(() => /^[-+#]?[-\d.]+ 1…/.test(document.querySelector('.live-line')?.textContent ?? ''), null, { timeout: 30000 });

    // a line clicked is played onto the board
    const line = page.locator('.live-line').first();
    const plies = (await line.getAttribute('data-move')) ? 1 : 0;
    assert.equal(plies, 1);
    await press(page, line);
    await page.waitForFunction(() => document.querySelectorAll('.analysis-page .move-list .move').length >= 2);

    // the tab hidden: the stream stops (no message after the pause)
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForTimeout(700);
    const before = await page.evaluate(() => window.__analysis);
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => window.__analysis), before);
    // shown again: it goes on
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForFunction(n => window.__analysis > n, before, { timeout: 20000 });
    assert.ok((await depth(page)) >= 1);
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(ann);
  }
});
