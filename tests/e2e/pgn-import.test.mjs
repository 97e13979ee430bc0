// PGN into the analysis board: pasted text read by the server, the games
// listed (a broken one with its error), one loaded onto the board, the list
// kept after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, press, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const PGN = `[Event "Rated Blitz game"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

1. e4 { [%clk 0:04:58] } e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0

[Event "Alice"]
[Variant "Alice"]
[White "Cy"]
[Black "Di"]
[Result "*"]

1. Nf3 d5 2. c4 dxc4 *

[Event "Broken"]
[White "Ed"]
[Black "Flo"]
[Result "*"]

1. e4 e5 2. Ke3 *
`;

test('PGN import: games listed, one loaded, the list kept', { timeout: 60000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await page.goto('/analysis');
    await page.locator('.pgn-import summary').click();
    await page.fill('textarea[name="pgn-input"]', PGN);
    await press(page, '[data-action="read-pgn"]');
    // the first game is loaded at its end: mate on the board, seven moves in the list
    await page.locator('.analysis-page .move-list .move', { hasText: 'f7' }).waitFor();
    assert.equal(await page.locator('.analysis-page .move-list .move').count(), 7);
    assert.equal(await page.locator('.study-list [data-action="load-game"]').count(), 2);
    assert.match(await page.locator('.study-error').innerText(), /Game 3, move 2\. 'Ke3': this move is not legal here/);
    // the Alice game: two boards, the knight on board 2
    await press(page, page.locator('.study-list [data-action="load-game"]', { hasText: 'Cy' }));
    // (while the boards animate to the new game a second knight may pass: wait for the settled board)
    await page.waitForFunction(
      () => document.querySelectorAll('.analysis-page .board-wrap[data-board="b"] piece.white.knight').length === 1,
    );
    assert.equal(await page.locator('.analysis-page .move-list .move').count(), 4);
    // kept in this browser
    await page.reload();
    await page.locator('.pgn-import summary').click();
    assert.equal(await page.locator('.study-list [data-action="load-game"]').count(), 2);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(ann);
  }
});

// An old French archive: French letters, "o-o" and figurines, read with a
// note in French; a move that cannot be read said in French, with its game,
// move and text.
const FRENCH_PGN = `[Event "Archive"]
[White "Alekhine"]
[Black "Tartacover"]
[Result "*"]

1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 ♞f6 5. o-o Fe7 *

[Event "Illisible"]
[White "X"]
[Black "Y"]
[Result "*"]

1. e4 Zf6 *
`;

test('PGN import in French: lenient spellings noted, errors said in French', { timeout: 60000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    await page.goto('/analysis');
    await page.locator('.pgn-import summary').click();
    await page.fill('textarea[name="pgn-input"]', FRENCH_PGN);
    await press(page, '[data-action="read-pgn"]');
    await page.locator('.study-note').waitFor();
    const note = await page.locator('.study-note').innerText();
    assert.match(note, /^Lu en devinant : 2\. Cf3 lu Nf3, 2\.\.\. Cc6 lu Nc6, 3\. Fb5 lu Bb5, 4\. Fa4 lu Ba4, 4\.\.\. ♞f6 lu Nf6, …\.$/);
    assert.match(
      await page.locator('.study-error').innerText(),
      /Partie 2, coup 1\.\.\. 'Zf6' : ce coup est illisible\./,
    );
    // the game is loaded: ten moves, castling among them (waited for: the board may still be loading it)
    await page.waitForFunction(() => document.querySelectorAll('.analysis-page .move-list .move').length === 10);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(fr);
  }
});
