// The board editor: any position of the three games set up by hand, judged
// by the server (its refusal in words), then analysed, solved, or played
// against the computer from there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickSquare, closeAll, newPlayer, noHorizontalScroll, press, screenshot, seriousA11yViolations, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const verdict = page => page.locator('.editor-verdict');
const fenValue = page => page.inputValue('input[name="fen"]');

async function put(page, tool, square, board = 'a') {
  await press(page, page.getByRole('button', { name: tool, exact: true }));
  // the palette is under the board: bring the board back into view, as a person scrolls
  await page.evaluate(() => document.querySelector('.game-board').scrollIntoView({ block: 'start' }));
  await clickSquare(page, square, board);
}

test('board editor: set up, judged by the server, then used', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await page.goto('/editor');
    await verdict(page).filter({ hasText: '20 legal moves' }).waitFor();

    // an empty board is refused with the core's reason
    await press(page, '[data-action="clear-board"]');
    await verdict(page).filter({ hasText: 'Not a legal position' }).waitFor();
    assert.ok(await page.locator('[data-action="analyse"]').isDisabled());

    // two kings and a rook: legal; castling with the rook on h1 too; a bad en passant square is explained
    await put(page, 'White King', 'e1');
    await put(page, 'Black King', 'e8');
    await put(page, 'White Rook', 'h1');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.startsWith('4k3/8/8/8/8/8/8/4K2R '));
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();
    assert.match(await fenValue(page), /^4k3\/8\/8\/8\/8\/8\/8\/4K2R w - - 0 1$/);
    await page.check('input[name="castle-K"]');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.includes(' w K - '));
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();
    await page.fill('input[name="ep"]', 'e3');
    await verdict(page).filter({ hasText: 'Not a legal position' }).waitFor();
    assert.match(await verdict(page).innerText(), /en passant/i);
    await page.fill('input[name="ep"]', '');
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();

    // Avalanche: a white pawn on its last rank with White to move awaits White's choice
    await page.selectOption('select[name="variant"]', 'avalanche');
    await put(page, 'White Pawn', 'a8');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.startsWith('P3k3/'));
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();

    // Alice: two boards; a piece on board 2 is written with the board-B letters
    await page.selectOption('select[name="variant"]', 'alice');
    await page.locator('.editor-page .board-wrap[data-board="b"]').waitFor();
    await put(page, 'Black Queen', 'd4', 'b');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.split('/')[4] === '3t4');
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();
    assert.ok(await noHorizontalScroll(page), 'no horizontal scroll');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'editor-alice');

    // analyse it: the analysis board opens on the same position
    const fen = await fenValue(page);
    await press(page, '[data-action="analyse"]');
    await page.waitForURL(/\/analysis\?/);
    assert.equal(new URL(page.url()).searchParams.get('fen'), fen);
    await page.locator('.analysis-page .board-wrap[data-board="b"] piece.black.queen').waitFor();

    // play the computer from a set-up chess position
    await page.goto(`/editor?variant=chess&fen=${encodeURIComponent('4k3/8/8/8/8/8/8/4K2R w K - 0 1')}`);
    await verdict(page).filter({ hasText: 'legal moves' }).waitFor();
    await press(page, '[data-action="play-computer"]');
    await page.waitForURL(/\/game\//);
    await page.locator('.game-page .board-wrap piece.white.rook').waitFor();
    assert.equal(await page.locator('.game-page .board-wrap piece').count(), 3);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(ann);
  }
});
