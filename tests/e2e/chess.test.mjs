// e2e sizes: desktop phone
// Orthodox chess in two browser contexts: fool's mate played by clicks (one
// move's two taps on either side of the opponent's move) and a drag, watched
// by a spectator whose connection drops and comes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove, clickSquare, closeAll, dragMove, moveList, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

test('chess: two players play to checkmate, a spectator watches and reconnects', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  const carol = await newPlayer(env.browser, env.server.url);
  try {
    const id = await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 10, increment: 5 });
    // seats and orientation: Ann (white) has white at the bottom, Bob black
    assert.equal(await ann.page.locator('.game-board .cg-wrap.orientation-white').count(), 1);
    assert.equal(await bob.page.locator('.game-board .cg-wrap.orientation-black').count(), 1);
    assert.equal(await ann.page.locator('.player.bottom .clock').textContent(), '10:00');
    assert.match(await ann.page.locator('.game-status').textContent(), /Your turn/);
    assert.match(await bob.page.locator('.game-status').textContent(), /Waiting for the opponent/);

    // Carol finds the game among the live games of the lobby and watches it
    await carol.page.goto('/');
    await carol.page.locator(`.game-list.live .game-row[data-game="${id}"]`).click();
    await carol.page.waitForURL(new RegExp(`/game/${id}$`));
    await carol.page.locator('.spectator-note').waitFor();
    assert.equal(await carol.page.locator('[data-action="resign"]').count(), 0);

    // legal destinations come from the server: the f2 pawn shows f3 and f4
    await ann.page.locator('.game-board cg-board').first().waitFor();
    // Bob premoves e7-e5 during Ann's turn; it is played as soon as Ann has moved
    await clickMove(bob.page, 'e7', 'e5');
    await bob.page.locator('.game-board square.current-premove').first().waitFor();
    await clickMove(ann.page, 'f2', 'f3');
    await waitPly(bob.page, 1);
    await waitPly(ann.page, 2);
    await waitPly(carol.page, 2);

    // browsing back in a live game: "viewing history", one tap back to live
    await press(ann.page, '[data-action="first"]');
    await ann.page.locator('.prompt-slot.history').waitFor();
    assert.match(await ann.page.locator('.prompt-slot').textContent(), /Viewing history/);
    await press(ann.page, '[data-action="back-to-live"]');
    await ann.page.locator('.prompt-slot.history').waitFor({ state: 'detached' });

    // Bob picks up his queen before Ann has moved: the tap survives her move's arrival
    await clickSquare(bob.page, 'd8');
    await bob.page.locator('.game-board square.selected').first().waitFor();

    // the spectator loses its connection; the next move reaches it after the reconnection
    await carol.page.evaluate(() => window.echecs.dropSocket());
    await dragMove(ann.page, 'g2', 'g4');
    await waitPly(bob.page, 3);
    await waitPly(carol.page, 3, 15000);

    // still picked up on Bob's board; his second tap plays the move
    assert.equal(await bob.page.locator('.game-board square.selected').count(), 1);
    await clickSquare(bob.page, 'h4');
    for (const p of [ann.page, bob.page, carol.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible' });
      assert.equal(await banner.getAttribute('data-result'), '0-1');
      assert.equal(await banner.getAttribute('data-termination'), 'checkmate');
      assert.match(await banner.textContent(), /Black wins.*by checkmate/);
      assert.deepEqual(await moveList(p), ['f3', 'e5', 'g4', 'Qh4#']);
      // the mated king is highlighted
      await p.locator('.game-board square.check').waitFor();
      assert.equal(await p.locator('.game-board square.check').count(), 1);
    }
    // the finished game offers a rematch and the PGN
    assert.equal(await ann.page.locator('[data-action="rematch-offer"]').count(), 1);
    const pgn = await (await fetch(`${env.server.url}/game/${id}.pgn`)).text();
    // the moves, each with its clock comment ({[%clk h:mm:ss]})
    assert.match(pgn, /1\. f3 \{\[%clk 0:10:05\]\} 1\.\.\. e5 \{\[%clk 0:10:05\]\}/);
    assert.match(pgn.replace(/\s*\{[^}]*\}(\s+\d+\.\.\.)?/g, '').replace(/\s+/g, ' '), /1\. f3 e5 2\. g4 Qh4#/);
    assert.equal(ann.page.errors.length + bob.page.errors.length + carol.page.errors.length, 0, ann.page.errors.join('\n'));
    await screenshot(ann.page, 'chess-checkmate');
    await screenshot(carol.page, 'chess-spectator');
  } finally {
    await closeAll(ann, bob, carol);
  }
});
