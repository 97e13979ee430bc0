// Takeback (docs/API.md "Takeback"): proposed by one browser and accepted by
// the other (one ply), then proposed after the opponent answered (two plies)
// and declined; against the computer it is granted at once, in the three
// games (Alice: the board change goes too; Avalanche: the push).
// e2e sizes: desktop phone
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, moveList, newPlayer, playComputer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

/** Waits until the page's move list has exactly `ply` moves (a takeback shortens it). */
async function waitPlies(page, ply, timeout = 10000) {
  await page.locator(`.game-side .move-list .move[data-ply="${ply + 1}"]`).waitFor({ state: 'detached', timeout });
  if (ply > 0) await waitPly(page, ply, timeout);
}

test('takeback between two players: proposed, accepted, then declined', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url, 'fr-FR'); // Bob reads French
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white' });
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'g1', 'f3');
    await waitPly(bob.page, 3);

    // Ann takes back Nf3 before Bob answers: one ply
    await press(ann.page, '[data-action="takeback-offer"]');
    await bob.page.locator('[data-action="takeback-accept"]').waitFor();
    assert.match(await bob.page.locator('.controls').textContent(), /Votre adversaire propose de reprendre son coup/);
    assert.equal(await bob.page.locator('[data-action="takeback-accept"]').textContent(), 'Accepter');
    await ann.page.locator('[data-action="takeback-offer"][disabled]').waitFor();
    assert.equal(await ann.page.locator('[data-action="takeback-offer"]').textContent(), 'Takeback proposed');
    await screenshot(bob.page, 'takeback-proposed');
    await press(bob.page, '[data-action="takeback-accept"]');
    for (const p of [ann.page, bob.page]) {
      await waitPlies(p, 2);
      assert.deepEqual(await moveList(p), ['e4', 'e5']);
    }
    await bob.page.locator('[data-action="takeback-accept"]').waitFor({ state: 'detached' });

    // Ann's turn again: she plays another move, Bob answers
    await clickMove(ann.page, 'f1', 'c4');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'b8', 'c6');
    await waitPly(ann.page, 4);
    // now Ann's takeback would take back Bob's answer too; Bob declines
    await press(ann.page, '[data-action="takeback-offer"]');
    await press(bob.page, '[data-action="takeback-decline"]');
    await ann.page.locator('[data-action="takeback-offer"]').waitFor({ state: 'detached' }); // no second try before a move
    assert.deepEqual(await moveList(bob.page), ['e4', 'e5', 'Bc4', 'Nc6']);
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0);
  } finally {
    await closeAll(ann, bob);
  }
});

test('takeback against the computer: granted at once, the computer\'s answer with it', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    await playComputer(page, { variant: 'chess', mode: 'unlimited', color: 'white', level: '1' });
    await page.fill('.san-input', 'e4');
    await page.press('.san-input', 'Enter');
    await waitPly(page, 2, 20000); // the computer answered
    await press(page, '[data-action="takeback-offer"]');
    await waitPlies(page, 0);
    assert.deepEqual(await moveList(page), []);
    await page.fill('.san-input', 'd4');
    await page.press('.san-input', 'Enter');
    await waitPly(page, 2, 20000);
    assert.equal((await moveList(page))[0], 'd4');
    assert.equal(page.errors.length, 0);
  } finally {
    await closeAll(ann);
  }
});

test('takeback against the computer in Alice and Avalanche: the move goes with its board change, with its push', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    for (const [variant, move] of [
      ['alice', 'e4'],
      ['avalanche', 'e2e4 e7e6'], // the first part and the push, as coordinates
    ]) {
      await playComputer(page, { variant, mode: 'unlimited', color: 'white', level: '1' });
      const start = await page.locator('.fen-field').inputValue();
      await page.fill('.san-input', move);
      await page.press('.san-input', 'Enter');
      await waitPly(page, 2, 20000); // the computer answered
      await press(page, '[data-action="takeback-offer"]');
      await waitPlies(page, 0);
      // the start position again: Alice's pawn back on board A, Avalanche's pushed pawn back on e7
      await page.waitForFunction(f => document.querySelector('.fen-field')?.value === f, start, { timeout: 10000 });
    }
    assert.equal(page.errors.length, 0);
  } finally {
    await closeAll(ann);
  }
});
