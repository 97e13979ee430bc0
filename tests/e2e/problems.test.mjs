// The problems page: the editor (palette, one piece per square across Alice's
// two boards), solving on the server with the solution in composers'
// notation, errors that say what is wrong, link, Popeye export and import
// (twins, a duplex's exchanged twin, a postkeyplay problem, a threat bound and exclusive castlings solved on the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickSquare, closeAll, newPlayer, horizontalOverflow, press, screenshot, seriousA11yViolations, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

test('problems: compose, solve, share, export and import', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await page.goto('/problems');
    // the Alice two-mover offered at first: its unique key goes to board B
    await page.locator('.problems-page .board-wrap[data-board="b"]').waitFor();
    await press(page, '[data-action="solve"]');
    await page.locator('.solution', { hasText: '1.Qd7-e8B!' }).waitFor({ timeout: 30000 });
    await page.locator('.solve-progress', { hasText: 'every solution' }).waitFor();
    assert.match(await page.locator('.solution').innerText(), /1 solution \(complete\)/);
    await screenshot(page, 'problems-alice-solved');

    // Popeye input of the problem, from the server
    await press(page, '[data-action="popeye"]');
    await page.waitForFunction(() => document.querySelector('.export-box')?.value.includes('condition alice'));

    // the editor: an empty board, a white rook on a1 (board A), then a white king on a1 of board B replaces it
    await press(page, '[data-action="clear-board"]');
    await press(page, page.getByRole('button', { name: 'White Rook' }));
    await clickSquare(page, 'a1', 'a');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.startsWith('8/8/8/8/8/8/8/R7 '));
    await press(page, page.getByRole('button', { name: 'White King' }));
    await clickSquare(page, 'a1', 'b');
    await page.waitForFunction(() => document.querySelector('input[name="fen"]').value.startsWith('8/8/8/8/8/8/8/L7 '));
    // the board redraws after the field: the rook leaves board A (bounded wait, 10 s)
    await page.locator('.board-wrap[data-board="a"] piece.white.rook').waitFor({ state: 'detached', timeout: 10000 });

    // a bad stipulation: the server's reason and its parameters, in the page's language
    await page.fill('input[name="stipulation"]', 'h#2.7');
    await press(page, '[data-action="solve"]');
    await page.locator('.form-msg', { hasText: 'h#2.7: only .5 may follow the number of moves' }).waitFor();

    // the link opens the same problem
    const fen = 'kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1';
    await page.goto(`/problems?variant=chess&fen=${encodeURIComponent(fen)}&stip=%232`);
    await page.locator('.problems-page .board-wrap[data-board="a"] piece.white.rook').waitFor();
    assert.equal(await page.locator('.problems-page .board-wrap').count(), 1);
    assert.equal(await page.inputValue('input[name="stipulation"]'), '#2');
    await press(page, '[data-action="solve"]');
    await page.locator('.solution', { hasText: '1.Ra1-a6!' }).waitFor({ timeout: 30000 });

    // Popeye input with a twin: the first is loaded, each twin has its button
    await page.locator('.problems-page details summary').click();
    await page.fill('textarea[name="popeye-input"]', 'begin\npieces white kf5 rg7 se1 pg2h2 black kh5 bf2 pg3h6\nstipulation #3\ntwin remove e1 stipulation #4\nend\n');
    await press(page, '[data-action="read-popeye"]');
    await page.waitForFunction(() => document.querySelector('input[name="stipulation"]').value === '#3');
    assert.equal(await page.locator('.twins button').count(), 2);
    assert.match(await page.inputValue('input[name="fen"]'), /^8\/6R1\/7p\/5K1k\/8\/6p1\/5bPP\/4N3 /);

    // Popeye's duplex: the second twin has the colours' parts exchanged (Popeye 4.104: 1.b3-b4 Rc2-c1#)
    await page.fill('textarea[name="popeye-input"]', 'begin\nstip h#1\nopt duplex\npieces white kh1 pg2h2b3 black ka8 rc2\nend\n');
    await press(page, '[data-action="read-popeye"]');
    await page.locator('.twins button', { hasText: 'duplex' }).waitFor();
    assert.equal(await page.isChecked('input[name="halfduplex"]'), false);
    await press(page, page.locator('.twins button', { hasText: 'duplex' }));
    await page.waitForFunction(() => document.querySelector('input[name="halfduplex"]').checked);
    await press(page, '[data-action="solve"]');
    // the whole solution, not the solutions found while it runs (bounded, 30 s)
    await page.locator('.solution', { hasText: '1 solution (complete)' }).waitFor({ timeout: 30000 });
    const text = await page.locator('.solution').innerText();
    assert.match(text, /h#1 halfduplex/);
    assert.match(text, /1\.b3-b4 Rc2-c1#/);
    assert.match(await page.inputValue('.fen-row input[readonly]'), /halfduplex=1/);

    // Popeye's postkeyplay: the diagram is the position after the key (Popeye 4.104: zugzwang, 1...Se8-c7 2.Sd5xc7#)
    await page.fill('textarea[name="popeye-input"]', 'begin\nstip #2\nopt postkeyplay\npieces white kb6 sd5 pa7 black ka8 se8\nend\n');
    await press(page, '[data-action="read-popeye"]');
    await page.waitForFunction(() => document.querySelector('input[name="postkey"]').checked && !document.querySelector('input[name="halfduplex"]').checked);
    await press(page, '[data-action="solve"]');
    await page.locator('.solution', { hasText: 'after the key: zugzwang' }).waitFor({ timeout: 30000 });
    await page.locator('.solution', { hasText: '1 solution (complete)' }).waitFor({ timeout: 30000 });
    assert.match(await page.locator('.solution').innerText(), /1\.\.\.Se8-c7 2\.Sd5xc7#/);
    assert.match(await page.inputValue('.fen-row input[readonly]'), /postkey=1/);

    // Popeye's "threat 1": Morphy's zugzwang key no longer works (Popeye 4.104: no solution)
    await page.fill('textarea[name="popeye-input"]', 'begin\npieces white kc8 ra1 pb6 black ka8 bb8 pa7b7\nstip #2\noption threat 1\nend\n');
    await press(page, '[data-action="read-popeye"]');
    await page.waitForFunction(() => document.querySelector('input[name="threat"]').value === '1' && !document.querySelector('input[name="postkey"]').checked);
    await press(page, '[data-action="solve"]');
    await page.locator('.solution', { hasText: 'no solution (complete)' }).waitFor({ timeout: 30000 });
    assert.match(await page.inputValue('.fen-row input[readonly]'), /threat=1/);

    // Popeye's castlingmutuallyexclusive, kept from the import and sent with the solve: castling is
    // Remling's key only because it takes Black's (Popeye 4.104: 1.0-0-0!)
    await page.fill('textarea[name="popeye-input"]', 'begin\npieces white ke1 ra1 be6 sf7 pb2b4b6c2c3g2h6 black ke8 rh8 ba5 sa8 pb7c7e7f6g6h7\nstip #2\noption castlingmutuallyexclusive a1h8\nend\n');
    await press(page, '[data-action="read-popeye"]');
    await page.locator('.kept-options', { hasText: 'castlingmutuallyexclusive a1h8' }).waitFor();
    await press(page, '[data-action="solve"]');
    await page.locator('.solution', { hasText: '1 solution (complete)' }).waitFor({ timeout: 30000 });
    assert.match(await page.locator('.solution').innerText(), /1\.0-0-0! threat: 2\.Rd1-d8#/);

    assert.equal(await horizontalOverflow(page), '', 'no horizontal scroll');
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'problems-popeye');
  } finally {
    await closeAll(ann);
  }
});
