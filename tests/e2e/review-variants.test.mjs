// The computer review in Alice and Avalanche, as review.test.mjs checks it in
// chess: two players play a short game where White blunders into a mate (the
// helpmates of tests/review/game_review_test.cpp, colours swapped), Ann asks
// for the analysis; the blunder is marked, each side's accuracy shown (the
// server's), and "learn from your mistakes" judges the same move again (a
// blunder) and the engine's move. Then "Analyse the game" opens the analysis
// board with the review's graph and marks, and a click on the blunder's mark
// goes to that position.
// e2e sizes: desktop phone
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

const GAMES = [
  // Alice: 3.e4?? (to board B) opens the way for 3…Re5#
  { variant: 'alice', moves: ['b1a3', 'a7a6', 'g1f3', 'a8a5', 'e2e4', 'a5e5'], blunder: 5 },
  // Avalanche: 2.g4 pushing e6?? then 2…Qh4# pushing f3
  { variant: 'avalanche', moves: ['b1a3 a7a6', 'b8c6 b2b3', 'g2g4 e7e6', 'd8h4 f2f3'], blunder: 3 },
];

/** Types a move in the page's move box (coordinates; Avalanche: the move and its push). */
async function typeMove(page, move) {
  await page.fill('.san-input', move);
  await page.press('.san-input', 'Enter');
}

/** A tap on a touch device, else a click, at a point of the page. */
async function pressAt(page, x, y) {
  if (page.touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

for (const g of GAMES) {
  test(`review in ${g.variant}: the blunder marked, accuracy, learn from your mistakes, the graph on the analysis board`, { timeout: 180000 }, async () => {
    const ann = await newPlayer(env.browser, env.server.url);
    const bob = await newPlayer(env.browser, env.server.url);
    try {
      await startGame(ann, bob, { variant: g.variant, color: 'white', mode: 'unlimited' });
      // each player moves once the other's move has come (waitPly below)
      for (const [i, move] of g.moves.entries()) {
        const [mover, other] = i % 2 === 0 ? [ann, bob] : [bob, ann];
        await typeMove(mover.page, move);
        await waitPly(other.page, i + 1);
      }
      await ann.page.locator('.result-banner').waitFor({ state: 'visible' });

      await press(ann.page, '[data-action="request-review"]');
      await ann.page.locator('.game-review .eval-graph').waitFor({ timeout: 150000 });
      const mark = ann.page.locator(`.move-list .move[data-ply="${g.blunder}"] .judgement`);
      await mark.waitFor();
      assert.equal(await mark.textContent(), '??');
      // each side's accuracy, from the server: White, who blundered, is the less accurate
      const accuracy = async c => {
        const text = await ann.page.locator(`.review-summary td.accuracy[data-color="${c}"]`).textContent();
        assert.match(text, /^\d+ %$/, `${c}'s accuracy is shown`);
        return Number(text.replace(/[^0-9]/g, ''));
      };
      assert.ok((await accuracy('white')) < (await accuracy('black')), 'White, who blundered, is less accurate');

      // learn from your mistakes: Ann's last mistake is the blunder
      await press(ann.page, '[data-action="learn-start"]');
      const learn = ann.page.locator('.learn');
      await learn.waitFor();
      while ((await ann.page.locator('[data-action="learn-next"]').count()) > 0) await press(ann.page, '[data-action="learn-next"]');
      assert.equal(await learn.getAttribute('data-ply'), String(g.blunder));
      await ann.page.locator(`.move-list .move[data-ply="${g.blunder - 1}"].current`).waitFor();
      const tryMove = async move => {
        await ann.page.fill('.learn-input', move);
        await press(ann.page, '[data-action="learn-try"]');
        const result = ann.page.locator('.learn-result');
        await result.waitFor({ timeout: 30000 });
        return result.getAttribute('data-verdict');
      };
      assert.equal(await tryMove(g.moves[g.blunder - 1]), 'blunder'); // the same move again
      await press(ann.page, '[data-action="learn-show"]');
      const best = (await ann.page.locator('.learn-best').textContent()).split(': ').pop();
      assert.equal(await tryMove(best), 'best', `the engine's move ${best}`);
      await screenshot(ann.page, `review-learn-${g.variant}`);
      await press(ann.page, '[data-action="learn-stop"]');
      await learn.waitFor({ state: 'detached' });

      // "Analyse the game": the analysis board with the review's graph and marks
      await press(ann.page, '[data-action="analyse"]');
      await ann.page.waitForURL(/\/analysis\?game=/);
      const graph = ann.page.locator('.analysis-review .eval-graph');
      await graph.waitFor();
      await ann.page.locator(`.analysis-page .move-list .move[data-ply="${g.blunder}"] .judgement`).waitFor();
      assert.equal(await ann.page.locator(`.analysis-page .move-list .move[data-ply="${g.blunder}"] .judgement`).textContent(), '??');
      assert.match(await ann.page.locator('.analysis-review td.accuracy[data-color="white"]').textContent(), /^\d+ %$/);
      // a click at the graph's left: the start; on the blunder's mark: the blunder
      await graph.scrollIntoViewIfNeeded();
      const area = await graph.boundingBox();
      await pressAt(ann.page, area.x + 2, area.y + area.height / 2);
      await ann.page.waitForFunction(() => !document.querySelector('.analysis-page .move-list .move.current'), null, { timeout: 10000 });
      // (the blunder's mark: the graph is 600 wide in its own units, a position every 600 / plies)
      const cx = String(Math.round(((g.blunder / g.moves.length) * 600 * 10)) / 10);
      const dot = await ann.page.locator(`.analysis-review .eval-dot.blunder[cx="${cx}"]`).boundingBox();
      await pressAt(ann.page, dot.x + dot.width / 2, area.y + area.height / 2);
      await ann.page.locator(`.analysis-page .move-list .move[data-ply="${g.blunder}"].current`).waitFor({ timeout: 10000 });
      // the graph's cursor on that position (a vertical line: attached, no width to be "visible")
      await ann.page.locator(`.analysis-review .eval-cursor[x1="${cx}"]`).waitFor({ state: 'attached', timeout: 10000 });
      await screenshot(ann.page, `analysis-review-${g.variant}`);
      assert.deepEqual(ann.page.errors, []);
      assert.deepEqual(bob.page.errors, []);
    } finally {
      await closeAll(ann, bob);
    }
  });
}
