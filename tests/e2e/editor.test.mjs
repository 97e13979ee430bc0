// e2e sizes: desktop phone
// The board editor: any position of the three games set up by hand, judged
// by the server (its refusal in words), then analysed, played against the
// computer, or sent to a friend as a private challenge from there (whose
// page shows the position the game starts from). Every
// step waits for the server's verdict on the position it expects (the
// verdict says which FEN it judged), never for a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEVICE, clickSquare, closeAll, newPlayer, horizontalOverflow, press, screenshot, seriousA11yViolations, useServerAndBrowser,
} from './lib.mjs';

const env = useServerAndBrowser();

const verdict = page => page.locator('.editor-verdict');

/** Waits for the server's verdict on a position whose FEN starts with `prefix`; returns its text. */
async function judged(page, prefix) {
  await page.waitForFunction(
    p => {
      const v = document.querySelector('.editor-verdict');
      return v && v.dataset.state !== 'pending' && (v.dataset.fen ?? '').startsWith(p);
    },
    prefix,
    { timeout: 15000 },
  );
  return verdict(page).innerText();
}

async function put(page, tool, square, board = 'a') {
  await press(page, page.getByRole('button', { name: tool, exact: true }));
  // on a phone the palette is under the board: bring the board back into view, as a person
  // scrolls (centred: at the top the sticky header would take the tap on the 8th rank)
  await page.evaluate(() => document.querySelector('.game-board').scrollIntoView({ block: 'center' }));
  await clickSquare(page, square, board);
}

test('board editor: set up, judged by the server, then used', { timeout: 120000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await page.goto('/editor');
    assert.match(await judged(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq'), /20 legal moves/);
    if (DEVICE === 'desktop') {
      // the palette beside the board, not under it
      const board = await page.locator('.editor-page .game-board').boundingBox();
      const palette = await page.locator('.editor-page .palette').boundingBox();
      assert.ok(palette.x >= board.x + board.width - 1, `palette at x=${palette.x}, board ends at ${board.x + board.width}`);
      assert.ok(palette.y < board.y + board.height / 2, 'palette beside the board');
    }

    // an empty board is refused with the core's reason
    await press(page, '[data-action="clear-board"]');
    assert.match(await judged(page, '8/8/8/8/8/8/8/8 '), /Not a legal position/);
    assert.ok(await page.locator('[data-action="analyse"]').isDisabled());
    assert.ok(await page.locator('[data-action="challenge-friend"]').isDisabled());

    // two kings and a rook: legal; castling with the rook on h1 too; a bad en passant square is explained
    await put(page, 'White King', 'e1');
    await put(page, 'Black King', 'e8');
    await put(page, 'White Rook', 'h1');
    assert.match(await judged(page, '4k3/8/8/8/8/8/8/4K2R w - - 0 1'), /legal moves/);
    await page.check('input[name="castle-K"]');
    assert.match(await judged(page, '4k3/8/8/8/8/8/8/4K2R w K - 0 1'), /legal moves/);
    await page.fill('input[name="ep"]', 'e3');
    assert.match(await judged(page, '4k3/8/8/8/8/8/8/4K2R w K e3'), /Not a legal position.*en passant/is);
    await page.fill('input[name="ep"]', '');
    assert.match(await judged(page, '4k3/8/8/8/8/8/8/4K2R w K - 0 1'), /legal moves/);

    // Avalanche: a white pawn on its last rank with White to move awaits White's choice
    // (a black rook between it and the king: as a queen it would give check, which the push could not)
    await page.selectOption('select[name="variant"]', 'avalanche');
    await put(page, 'Black Rook', 'd8');
    await put(page, 'White Pawn', 'a8');
    assert.match(await judged(page, 'P2rk3/'), /legal moves/);

    // Alice: two boards (the pawn taken off: no pawn waits on its last rank in Alice);
    // a piece on board 2 is written with the board-B letters
    await put(page, 'Remove', 'a8');
    assert.match(await judged(page, '3rk3/'), /legal moves/);
    await page.selectOption('select[name="variant"]', 'alice');
    await page.locator('.editor-page .board-wrap[data-board="b"]').waitFor();
    await put(page, 'Black Queen', 'd4', 'b');
    assert.match(await judged(page, '3rk3/8/8/8/3t4/'), /legal moves/);
    assert.equal(await horizontalOverflow(page), '', 'no horizontal scroll');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshot(page, 'editor-alice');

    // analyse it: the analysis board opens on the same position
    const fen = await verdict(page).getAttribute('data-fen');
    await press(page, '[data-action="analyse"]');
    await page.waitForURL(/\/analysis\?/);
    assert.equal(new URL(page.url()).searchParams.get('fen'), fen);
    await page.locator('.analysis-page .board-wrap[data-board="b"] piece.black.queen').waitFor();

    // play the computer from a set-up chess position
    const rook = '4k3/8/8/8/8/8/8/4K2R w K - 0 1';
    await page.goto(`/editor?variant=chess&fen=${encodeURIComponent(rook)}`);
    assert.match(await judged(page, rook), /legal moves/);
    await press(page, '[data-action="play-computer"]');
    await page.waitForURL(/\/game\//);
    await page.locator('.game-page .board-wrap piece.white.rook').waitFor();
    const pieces = await page.locator('.game-page .board-wrap cg-board piece').evaluateAll(ps => ps.map(p => p.className));
    assert.equal(pieces.length, 3, pieces.join(', '));

    // challenge a friend from the same position: a private link; the friend's game starts there
    await page.goto(`/editor?variant=chess&fen=${encodeURIComponent(rook)}`);
    assert.match(await judged(page, rook), /legal moves/);
    await press(page, '[data-action="challenge-friend"]');
    await page.waitForURL(/\/challenge\/[A-Za-z0-9]{8}$/);
    const link = await page.locator('.challenge-url').inputValue();
    // the challenge page says the game starts from a set-up position and shows it, to both
    await page.locator('.challenge-position .board-wrap piece.white.rook').waitFor();
    assert.equal(await page.locator('.challenge-fen').inputValue(), rook);
    await bob.page.goto(link);
    const shown = bob.page.locator('.challenge-position');
    await shown.locator('.board-wrap piece.white.rook').waitFor();
    assert.match(await shown.innerText(), /starts from a set-up position/);
    assert.equal(await shown.getAttribute('data-fen'), rook);
    assert.equal(await shown.locator('cg-board piece').count(), 3);
    assert.equal(await horizontalOverflow(bob.page), '', 'no horizontal scroll on the challenge page');
    await screenshot(bob.page, 'challenge-position');
    await press(bob.page, '[data-action="accept-seek"]');
    await bob.page.waitForURL(/\/game\//);
    await bob.page.locator('.game-page .board-wrap piece.white.rook').waitFor();
    const bobs = await bob.page.locator('.game-page .board-wrap cg-board piece').evaluateAll(ps => ps.map(p => p.className));
    assert.equal(bobs.length, 3, bobs.join(', '));
    await page.waitForURL(/\/game\//, { timeout: 15000 });
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    assert.equal(bob.page.errors.length, 0, bob.page.errors.join('\n'));
  } finally {
    await closeAll(ann, bob);
  }
});

test('board editor in French: the refusal says what is wrong in French', { timeout: 60000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    await page.goto('/editor');
    await judged(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq');
    await press(page, '[data-action="clear-board"]');
    // the server's key and parameters (fen_no_king, color white), not its English words
    assert.equal(await judged(page, '8/8/8/8/8/8/8/8 '), 'Position illégale : les Blancs n’ont pas de roi');
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(fr);
  }
});
