// Avalanche chess in two browser contexts: every move is a first part then a
// push of an enemy pawn, clicked on the board. One game ends in checkmate;
// in the other a pushed pawn reaches its last rank and its owner chooses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove, clickSquare, closeAll, moveList, newPlayer, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

/** First part by two clicks, then a click on the pawn to push (highlighted). */
async function play(page, from, to, push) {
  await clickMove(page, from, to);
  const pushable = page.locator('.game-board square.pushable');
  await pushable.first().waitFor();
  await page.locator('.prompt-slot.active').waitFor();
  const n = await pushable.count();
  assert.ok(n >= 1, 'pushable pawns are highlighted');
  await clickSquare(page, push);
  return n;
}

// Black's h-pawn walks down the h-file to h2, by its own moves and White's pushes
// (moves checked by the server's rules core when the test runs).
const PUSH_DOWN_THE_H_FILE = [
  // [player, from, to, push]
  ['ann', 'g1', 'f3', 'a7'],
  ['bob', 'g8', 'f6', 'a2'],
  ['ann', 'h1', 'g1', 'a6'],
  ['bob', 'f6', 'h5', 'a3'],
  ['ann', 'd2', 'd3', 'b7'],
  ['bob', 'h5', 'g3', 'b2'],
  ['ann', 'h2', 'g3', 'h7'],
  ['bob', 'h6', 'h5', 'b3'],
  ['ann', 'c1', 'd2', 'h5'],
  ['bob', 'h4', 'h3', 'e2'],
  ['ann', 'b1', 'c3', 'h3'],
  ['bob', 'e7', 'e6', 'e3'],
];

async function playScript(ann, bob, script) {
  let ply = 0;
  for (const [who, from, to, push] of script) {
    await play((who === 'ann' ? ann : bob).page, from, to, push);
    ply++;
    await waitPly(ann.page, ply);
    await waitPly(bob.page, ply);
  }
}

test('avalanche: pushes clicked on the board, checkmate', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'avalanche', color: 'white' });
    // a first part waiting for its push can be taken back (Escape)
    await clickMove(ann.page, 'f2', 'f3');
    await ann.page.locator('.game-board square.pushable').first().waitFor();
    await ann.page.keyboard.press('Escape');
    await ann.page.locator('.prompt-slot.active').waitFor({ state: 'detached' });
    await ann.page.locator('.game-board square.pushable').first().waitFor({ state: 'detached' });
    assert.deepEqual(await moveList(ann.page), []);
    // after 1.f3 every black pawn can be pushed
    assert.equal(await play(ann.page, 'f2', 'f3', 'e7'), 8);
    await waitPly(bob.page, 1);
    assert.deepEqual(await moveList(bob.page), ['f3,e6']);
    await play(bob.page, 'a7', 'a6', 'g2');
    await waitPly(ann.page, 2);
    await play(ann.page, 'b1', 'c3', 'h7');
    await waitPly(bob.page, 3);
    await play(bob.page, 'b7', 'b6', 'g3');
    await waitPly(ann.page, 4);
    await play(ann.page, 'a2', 'a3', 'h6');
    await waitPly(bob.page, 5);
    await play(bob.page, 'd8', 'h4', 'a3');
    for (const p of [ann.page, bob.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible' });
      assert.equal(await banner.getAttribute('data-result'), '0-1');
      assert.equal(await banner.getAttribute('data-termination'), 'checkmate');
      assert.deepEqual(await moveList(p), ['f3,e6', 'a6,g3', 'Nc3,h6', 'b6,g4', 'a3,h5', 'Qh4,a4#']);
    }
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0);
    await screenshot(bob.page, 'avalanche-checkmate');
  } finally {
    await closeAll(ann, bob);
  }
});

// White brings Black's h-pawn down to h1 and Black mates with the queen it chooses:
// Black's knight takes the rook on h1 and is taken on g3, the h-file opens,
// Black's bishop comes to a6 to guard f1, White pushes the pawn to h1.
const PENDING_QUEEN_MATES = [
  ['ann', 'g1', 'f3', 'b7'],
  ['bob', 'g8', 'f6', 'a2'],
  ['ann', 'b1', 'c3', 'a7'],
  ['bob', 'f6', 'h5', 'a3'],
  ['ann', 'e2', 'e4', 'a6'],
  ['bob', 'h5', 'g3', 'b2'],
  ['ann', 'a1', 'b1', 'h7'],
  ['bob', 'g3', 'h1', 'b3'],
  ['ann', 'b1', 'a1', 'h6'],
  ['bob', 'h1', 'g3', 'e4'],
  ['ann', 'h2', 'g3', 'h5'],
  ['bob', 'h4', 'h3', 'g3'],
  ['ann', 'a1', 'b1', 'h3'],
  ['bob', 'c8', 'a6', 'g4'],
  ['ann', 'b1', 'a1', 'h2'], // White pushes Black's pawn to h1
];

test('avalanche: a pawn pushed to its last rank, its owner chooses a queen and mates', { timeout: 120000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'avalanche', color: 'white' });
    await playScript(ann, bob, PENDING_QUEEN_MATES);
    // Black's turn starts with the choice of the pushed pawn's piece
    const dialog = bob.page.locator('.promotion-overlay');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.promotion-choice').count(), 4);
    assert.match(await dialog.textContent(), /pushed to the last rank/);
    // the opponent sees no dialog, but is told that Black is choosing
    assert.equal(await ann.page.locator('.promotion-overlay').count(), 0);
    assert.match(await ann.page.locator('.game-status').textContent(), /Your opponent chooses the piece of the pawn pushed to h1/);
    await dialog.locator('[data-role="queen"]').click();
    // the pawn on h1 is now shown as the chosen queen
    await bob.page.waitForFunction(() => document.querySelectorAll('.game-board piece.black.queen:not(.ghost)').length === 2);
    // the new queen moves in the same turn: Qxf1 mates (f1 guarded by the bishop on a6), then a push
    await play(bob.page, 'h1', 'f1', 'g5');
    for (const p of [ann.page, bob.page]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor({ state: 'visible' });
      assert.equal(await banner.getAttribute('data-result'), '0-1');
      assert.equal(await banner.getAttribute('data-termination'), 'checkmate');
      const list = await moveList(p);
      assert.equal(list.length, 16);
      assert.equal(list[14], 'Ra1,h1');
      assert.match(list[15], /^Q:Qxf1,g6#$/);
    }
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0);
    await screenshot(bob.page, 'avalanche-pending-promotion-mate');
  } finally {
    await closeAll(ann, bob);
  }
});

test('avalanche: own promotion chosen in a dialog, then the push', { timeout: 120000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'avalanche', color: 'white' });
    await playScript(ann, bob, PUSH_DOWN_THE_H_FILE.slice(0, 11));
    // Black's pawn on h2 takes the rook on g1 and promotes: Black chooses a knight
    await clickMove(bob.page, 'h2', 'g1');
    const dialog = bob.page.locator('.promotion-overlay');
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /Promote to/);
    assert.deepEqual(
      await dialog.locator('.promotion-choice').evaluateAll(bs => bs.map(b => b.getAttribute('data-role'))),
      ['queen', 'rook', 'bishop', 'knight'],
    );
    await dialog.locator('[data-role="knight"]').click();
    // then the push, as in every move
    await bob.page.locator('.game-board square.pushable').first().waitFor();
    await clickSquare(bob.page, 'e3');
    await waitPly(ann.page, 12);
    const list = await moveList(ann.page);
    assert.equal(list[11], 'hxg1=N,e4');
    await ann.page.waitForFunction(() => document.querySelectorAll('.game-board piece.black.knight:not(.ghost)').length === 2);
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0);
    await screenshot(ann.page, 'avalanche-own-promotion');
  } finally {
    await closeAll(ann, bob);
  }
});

test('avalanche: a premove of the first part and of the push, played when the turn comes', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'avalanche', color: 'white' });
    // during White's turn Black premoves Ng8-f6, then taps White's d-pawn to premove its push
    await clickMove(bob.page, 'g8', 'f6');
    await bob.page.locator('.game-board square.current-premove').first().waitFor();
    await bob.page.locator('.prompt-slot.active', { hasText: 'Premove' }).waitFor();
    await clickSquare(bob.page, 'd2');
    await bob.page.locator('.game-board square.premove-push').waitFor();
    await play(ann.page, 'e2', 'e4', 'a7');
    // Black's premove is played at once, push included
    await waitPly(ann.page, 2);
    assert.deepEqual(await moveList(ann.page), ['e4,a6', 'Nf6,d3']);
    // a premove of the first part only: the push is chosen when the turn comes
    await play(ann.page, 'g1', 'f3', 'h7');
    await waitPly(bob.page, 3);
    await clickMove(ann.page, 'b1', 'c3');
    await ann.page.locator('.game-board square.current-premove').first().waitFor();
    await play(bob.page, 'b8', 'c6', 'h2');
    // White's first part is played at once; the push is White's to choose
    await ann.page.locator('.game-board square.pushable').first().waitFor();
    await clickSquare(ann.page, 'h6');
    await waitPly(bob.page, 5);
    assert.deepEqual(await moveList(bob.page), ['e4,a6', 'Nf6,d3', 'Nf3,h6', 'Nc6,h3', 'Nc3,h5']);
    assert.equal(ann.page.errors.length + bob.page.errors.length, 0, [...ann.page.errors, ...bob.page.errors].join('\n'));
    await screenshot(ann.page, 'avalanche-premove');
  } finally {
    await closeAll(ann, bob);
  }
});
