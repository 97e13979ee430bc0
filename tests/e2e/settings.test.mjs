// e2e sizes: desktop phone
// Settings: board and piece themes applied at once and remembered; the board
// grows with the window and the resize handle scales it (desktop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, closeAll, newPlayer, playComputer, press, screenshot, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const pieceImage = page =>
  page.locator('.game-board piece.white.knight').first().evaluate(e => getComputedStyle(e).backgroundImage.slice(0, 120));
const boardImage = page => page.locator('.game-board cg-board').first().evaluate(e => getComputedStyle(e).backgroundImage.slice(0, 60));

test('board and piece themes, remembered', { timeout: 60000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url);
  try {
    const page = p.page;
    await playComputer(page, { variant: 'chess', color: 'white', level: '1' });
    const piece0 = await pieceImage(page);
    const board0 = await boardImage(page);
    await press(page, '[data-action="settings"]');
    const dialog = page.locator('dialog.settings-dialog');
    await dialog.waitFor();
    assert.equal(await dialog.locator('input[data-setting="board"]').count(), 4, 'four boards');
    assert.equal(await dialog.locator('input[data-setting="pieces"]').count(), 2, 'two piece sets');
    await dialog.locator('input[data-setting="board"][value="blue"]').check();
    await dialog.locator('input[data-setting="pieces"][value="fontawesome"]').check();
    await press(page, '[data-action="close-settings"]');
    assert.ok(await page.evaluate(() => document.body.classList.contains('board-blue') && document.body.classList.contains('pieces-fontawesome')));
    const piece1 = await pieceImage(page);
    assert.notEqual(piece1, piece0, 'the pieces are drawn from the other set');
    assert.notEqual(await boardImage(page), board0, 'the board has other colours');
    await page.reload();
    await page.locator('.game-board cg-board').waitFor();
    assert.equal(await pieceImage(page), piece1, 'remembered after a reload');
    await screenshot(page, 'themes-blue-fontawesome');
  } finally {
    await closeAll(p);
  }
});

test('the board grows with the window; the handle resizes it', { skip: PHONE && 'no resize handle on touch screens', timeout: 60000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url, 'en-US', { viewport: { width: 1920, height: 1080 } });
  try {
    const page = p.page;
    await playComputer(page, { variant: 'alice', color: 'white', level: '1' });
    const size = async () => (await page.locator('.game-board .board-wrap[data-board="a"] cg-board').boundingBox()).width;
    const big = await size();
    assert.ok(big > 600, `Alice boards grow with a 1920x1080 window: ${big}`);
    const h = await page.locator('.resize-handle').boundingBox();
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x - 200, h.y - 200, { steps: 5 });
    await page.mouse.up();
    const small = await size();
    assert.ok(small < big - 100, `the handle made it smaller: ${big} -> ${small}`);
    await page.reload();
    await page.locator('.game-board cg-board').first().waitFor();
    assert.ok(Math.abs((await size()) - small) < 4, 'the size is remembered');
    await screenshot(page, 'alice-resized');
  } finally {
    await closeAll(p);
  }
});
