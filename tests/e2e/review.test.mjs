// The computer review of a finished game: fool's mate played by two players,
// Ann requests the analysis, both see its progress, then the evaluation
// graph under the board, the blunder marked in the move list, the counts, and
// the best move's arrow, each side's accuracy; a click in the graph (or on
// its blunder mark) jumps to that move, and the analysis board opens there
// with the review's graph and marks (a click on the mark goes back there);
// "learn from your mistakes" judges a move tried instead of the blunder.
// e2e sizes: desktop phone
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

test('review: a finished game is analysed once, its blunder marked', { timeout: 150000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white', mode: 'unlimited' });
    // no analysis offered while the game goes on
    assert.equal(await ann.page.locator('[data-action="request-review"]').count(), 0);
    await clickMove(ann.page, 'f2', 'f3');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'g2', 'g4');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'd8', 'h4');
    await ann.page.locator('.result-banner').waitFor({ state: 'visible' });
    await bob.page.locator('.result-banner').waitFor({ state: 'visible' });

    await press(ann.page, '[data-action="request-review"]');
    // Bob, watching the same game, gets the result over the socket
    for (const p of [ann.page, bob.page]) await p.locator('.game-review .eval-graph').waitFor({ timeout: 120000 });
    const mark = ann.page.locator('.move-list .move[data-ply="3"] .judgement');
    await mark.waitFor();
    assert.equal(await mark.textContent(), '??');
    assert.equal(await bob.page.locator('.move-list .move[data-ply="3"] .judgement').textContent(), '??');
    // the mating move is not marked
    assert.equal(await ann.page.locator('.move-list .move[data-ply="4"] .judgement').count(), 0);
    // White: one blunder in the summary table
    const whiteRow = ann.page.locator('.review-summary tr', { hasText: 'White' });
    assert.equal(await whiteRow.locator('td').nth(2).textContent(), '1');

    // a click at the left of the graph goes to the start position
    const graph = ann.page.locator('.game-review .eval-graph');
    await graph.scrollIntoViewIfNeeded();
    const box = await graph.boundingBox();
    if (ann.page.touch) await ann.page.touchscreen.tap(box.x + 2, box.y + box.height / 2);
    else await ann.page.mouse.click(box.x + 2, box.y + box.height / 2);
    await ann.page.waitForFunction(() => !document.querySelector('.move-list .move.current'));
    // the position after White's blunder: the best move (the mate) as an arrow
    await press(ann.page, '.move-list .move[data-ply="3"]');
    await press(ann.page, '[data-action="show-best"]');
    await ann.page.locator('.game-board svg.cg-shapes line, .game-board svg.cg-shapes g').first().waitFor({ state: 'attached' });
    assert.match(await ann.page.locator('.review-best .best-san').textContent(), /Qh4#/);
    await screenshot(ann.page, 'review');
    // each side's accuracy (the server's): White's blunder costs it
    const accuracy = async c => Number((await ann.page.locator(`.review-summary td.accuracy[data-color="${c}"]`).textContent()).replace(/[^0-9]/g, ''));
    assert.ok((await accuracy('white')) < (await accuracy('black')), 'White, who blundered, is less accurate');
    // the summary's last column is in sight, within the panel (a phone too)
    assert.ok(
      await ann.page.locator('.review-summary').evaluate(t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 1),
      'the summary table sticks out of the review panel',
    );

    // learn from your mistakes: Ann (White) goes to the position before her blunder 3.g4
    await press(ann.page, '[data-action="learn-start"]');
    const learn = ann.page.locator('.learn');
    await learn.waitFor();
    while ((await ann.page.locator('[data-action="learn-next"]').count()) > 0) await press(ann.page, '[data-action="learn-next"]');
    assert.equal(await learn.getAttribute('data-ply'), '3'); // her last mistake
    await ann.page.locator('.move-list .move[data-ply="2"].current').waitFor();
    const tryMove = async san => {
      await ann.page.fill('.learn-input', san);
      await press(ann.page, '[data-action="learn-try"]');
      const result = ann.page.locator('.learn-result');
      await result.waitFor({ timeout: 30000 });
      return result.getAttribute('data-verdict');
    };
    assert.equal(await tryMove('g4'), 'blunder'); // the same move again: still the blunder
    await press(ann.page, '[data-action="learn-show"]');
    const best = (await ann.page.locator('.learn-best').textContent()).split(': ').pop();
    assert.equal(await tryMove(best), 'best');
    assert.match(await ann.page.locator('.learn-result').textContent(), /the engine’s move/);
    await screenshot(ann.page, 'review-learn');
    await press(ann.page, '[data-action="learn-stop"]');
    await learn.waitFor({ state: 'detached' });

    // the blunder's mark in the graph goes to that move; from there the analysis board opens at that position
    await press(ann.page, '.move-list .move[data-ply="1"]');
    // (at the mark's x, the graph's middle height: the mark of a mate sits on the graph's edge)
    await graph.scrollIntoViewIfNeeded();
    const dot = await ann.page.locator('.game-review .eval-dot.blunder').boundingBox();
    const area = await graph.boundingBox();
    if (ann.page.touch) await ann.page.touchscreen.tap(dot.x + dot.width / 2, area.y + area.height / 2);
    else await ann.page.mouse.click(dot.x + dot.width / 2, area.y + area.height / 2);
    await ann.page.locator('.move-list .move[data-ply="3"].current').waitFor();
    await press(ann.page, '[data-action="review-analyse"]');
    await ann.page.waitForURL(/\/analysis\?game=[A-Za-z0-9]+&ply=3$/);
    await ann.page.locator('.move[data-ply="3"].current').waitFor();
    assert.equal(await ann.page.locator('.move[data-ply="4"]').getAttribute('data-san'), 'Qh4#'); // the rest of the game follows
    // the review came along: its graph (cursor on this position), the blunder's mark in the move list
    const analysisGraph = ann.page.locator('.analysis-review .eval-graph');
    await analysisGraph.waitFor();
    await ann.page.locator('.analysis-page .move-list .move[data-ply="3"] .judgement').waitFor();
    assert.equal(await ann.page.locator('.analysis-page .move-list .move[data-ply="3"] .judgement').textContent(), '??');
    assert.equal(await ann.page.locator('.analysis-review .eval-cursor').getAttribute('x1'), '450');
    // a move played on the board starts a variation: no cursor, the game's marks stay on the game's moves
    await press(ann.page, '.analysis-page .move-list .move[data-ply="1"]');
    await ann.page.locator('.analysis-page .move-list .move[data-ply="1"].current').waitFor();
    await ann.page.fill('.san-input', 'd5'); // the game went 1…e5
    await ann.page.press('.san-input', 'Enter');
    await ann.page.locator('.analysis-page .move-list .variation .move[data-san="d5"].current').waitFor();
    await ann.page.locator('.analysis-review .eval-cursor').waitFor({ state: 'detached' });
    assert.equal(await ann.page.locator('.analysis-page .move-list .variation .judgement').count(), 0);
    assert.equal(await ann.page.locator('.analysis-page .move-list .move[data-path="0.0.0"] .judgement').textContent(), '??');
    // a click on the blunder's mark: back to that position of the game
    await analysisGraph.scrollIntoViewIfNeeded();
    const analysisDot = await ann.page.locator('.analysis-review .eval-dot.blunder').boundingBox();
    const analysisArea = await analysisGraph.boundingBox();
    if (ann.page.touch) await ann.page.touchscreen.tap(analysisDot.x + analysisDot.width / 2, analysisArea.y + analysisArea.height / 2);
    else await ann.page.mouse.click(analysisDot.x + analysisDot.width / 2, analysisArea.y + analysisArea.height / 2);
    await ann.page.locator('.analysis-page .move-list .move[data-ply="3"][data-path="0.0.0"].current').waitFor();
    await screenshot(ann.page, 'analysis-review');

    // a second request gives the same review back
    await bob.page.reload();
    await bob.page.locator('.game-review .eval-graph').waitFor();
    assert.equal(await bob.page.locator('[data-action="request-review"]').count(), 0);
    assert.deepEqual(ann.page.errors, []);
    assert.deepEqual(bob.page.errors, []);
  } finally {
    await closeAll(ann, bob);
  }
});
