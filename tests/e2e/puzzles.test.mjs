// The puzzle trainer: in each of the three games a puzzle solved by typing
// the solver's moves (the server's own solution, read from its answer), the
// replies played by the server, the rating raised and kept by the browser
// across a reload; in French, a chess puzzle failed by a wrong move made by
// hand on the board, the rating lowered and the solution shown; a
// logged-in player rated by the server (nothing kept by the browser), the
// rating shown again on the profile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, screenshot, signUp, uniqueName, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();
const WAIT = 30000;

const ratingOf = async page => {
  const text = await page.locator('[data-role="puzzle-rating"]').textContent();
  const m = text.match(/(\d+)\??\s*$/);
  assert.ok(m, `a rating in "${text}"`);
  return Number(m[1]);
};

/** Opens the trainer (or asks for the next puzzle) and returns the puzzle the server sent. */
async function openPuzzle(page, open) {
  const answer = page.waitForResponse(r => r.url().includes('/api/puzzles/next') && r.request().method() === 'GET', { timeout: WAIT });
  await open();
  const puzzle = await (await answer).json();
  await page.locator(`.puzzles-page[data-puzzle="${puzzle.id}"][data-ply="0"]`).waitFor({ timeout: WAIT });
  return puzzle;
}

test('puzzles: solved in each game by typed moves, rated, the rating kept', { timeout: 150000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    for (const variant of ['chess', 'alice', 'avalanche']) {
      const puzzle = await openPuzzle(page, () => page.goto(`/puzzles?variant=${variant}`));
      assert.equal(puzzle.variant, variant);
      assert.equal(await ratingOf(page), 1500, `${variant}: a new solver starts at 1500`);
      const input = page.locator('.puzzles-page .san-input');
      for (let i = 0; i < puzzle.solution.length; i += 2) {
        await input.fill(puzzle.solution[i]);
        await input.press('Enter');
        // the reply (when there is one) shown, and the solver to move again
        if (i + 1 < puzzle.solution.length) await page.locator(`.puzzles-page[data-ply="${i + 2}"]`).waitFor({ timeout: WAIT });
      }
      await page.locator('.puzzles-page[data-result="solved"]').waitFor({ timeout: WAIT });
      const after = await ratingOf(page);
      assert.ok(after > 1500, `${variant}: a solved puzzle raises the rating (${after})`);
      assert.match(await page.locator('[data-role="puzzle-status"]').textContent(), /^Solved! \(\+\d+\)$/);
      assert.equal(await page.locator('[data-role="puzzle-solution"]').isVisible(), true);
      assert.match(await page.locator('[data-action="analyse-puzzle"]').getAttribute('href'), new RegExp(`^/analysis\\?variant=${variant}&fen=`));
      await screenshot(page, `puzzles-solved-${variant}`);
      // kept by the browser, one rating per game
      await openPuzzle(page, () => page.reload());
      assert.equal(await ratingOf(page), after, `${variant}: the rating after a reload`);
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(ann);
  }
});

test('puzzles: a wrong move by hand fails the puzzle (in French), the solution shown', { timeout: 90000 }, async () => {
  const bea = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = bea.page;
    const puzzle = await openPuzzle(page, () => page.goto('/puzzles?variant=chess'));
    // a legal move that is not the solution's first and does not end the game (the server says which)
    const res = await fetch(`${env.server.url}/api/analysis`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: 'chess', fen: puzzle.fen }),
    });
    const legal = (await res.json()).legal_moves.filter(m => m !== puzzle.solution[0] && m.length === 4);
    let wrong = null;
    for (const m of legal) {
      const r = await fetch(`${env.server.url}/api/analysis`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'chess', fen: puzzle.fen, moves: [m] }),
      });
      if ((await r.json()).status !== 'over') {
        wrong = m;
        break;
      }
    }
    assert.ok(wrong, `a wrong move in ${puzzle.fen}`);
    await page.evaluate(() => document.querySelector('.game-board').scrollIntoView({ block: 'center' }));
    await clickMove(page, wrong.slice(0, 2), wrong.slice(2, 4));
    await page.locator('.puzzles-page[data-result="failed"]').waitFor({ timeout: WAIT });
    const after = await ratingOf(page);
    assert.ok(after < 1500, `a failed puzzle lowers the rating (${after})`);
    assert.match(await page.locator('[data-role="puzzle-status"]').textContent(), /^Ce n’est pas ce coup-là\. \(−\d+\)$/);
    assert.match(await page.locator('[data-role="puzzle-solution"]').textContent(), /^La solution : \S/);
    assert.match(await page.locator('[data-role="puzzle-rating"]').textContent(), /^Votre classement en tactique \(Échecs\) : \d+\?$/);
    await screenshot(page, 'puzzles-failed-fr');
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(bea);
  }
});

test('puzzles: a logged-in player is rated by the server and sees it on the profile', { timeout: 150000 }, async () => {
  const cat = await newPlayer(env.browser, env.server.url);
  try {
    const page = cat.page;
    const name = uniqueName('Puz');
    await signUp(page, name, 'a fine passphrase 42');
    const puzzle = await openPuzzle(page, () => page.goto('/puzzles?variant=chess'));
    await page.locator('[data-role="puzzle-rating"][data-source="account"]').waitFor({ timeout: WAIT });
    assert.equal(await ratingOf(page), 1500, 'a new account starts at 1500');
    const input = page.locator('.puzzles-page .san-input');
    for (let i = 0; i < puzzle.solution.length; i += 2) {
      await input.fill(puzzle.solution[i]);
      await input.press('Enter');
      if (i + 1 < puzzle.solution.length) await page.locator(`.puzzles-page[data-ply="${i + 2}"]`).waitFor({ timeout: WAIT });
    }
    await page.locator('.puzzles-page[data-result="solved"]').waitFor({ timeout: WAIT });
    const after = await ratingOf(page);
    assert.ok(after > 1500, `a solved puzzle raises the account's rating (${after})`);
    // the server's, not the browser's
    assert.equal(await page.evaluate(() => localStorage.getItem('echecs.puzzleRating.chess')), null);
    const me = await page.evaluate(async () => (await fetch('/api/account')).json());
    assert.equal(me.puzzle_ratings.chess.rating, after);
    assert.equal(me.puzzle_ratings.chess.puzzles, 1);
    await page.goto(`/@/${name}`);
    await page.locator('[data-role="puzzle-ratings"] tr[data-variant="chess"]', { hasText: String(after) }).waitFor({ timeout: WAIT });
    await screenshot(page, 'puzzles-profile');
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(cat);
  }
});
