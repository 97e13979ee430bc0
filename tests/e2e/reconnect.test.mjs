// Reconnection without reloading: the server is killed (SIGKILL) mid-game and
// started again; both pages say the connection is lost, get the game back by
// themselves, and play on. Also the direct challenge link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickMove, clickSquare, closeAll, fillSeekForm, moveList, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

test('server restart mid-game: the pages reconnect and the game goes on', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 10, increment: 0 });
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    // a marker that a reload would lose
    await ann.page.evaluate(() => (window.__noReload = true));

    // watched from before the restart: the page may be back within a second of the server
    const lost = ann.page.waitForSelector('.conn-status.down', { state: 'visible', timeout: 20000 });
    await env.server.restart();
    await lost;
    // the banner sits over the header, never over the board
    const banner = await ann.page.locator('.conn-status').boundingBox();
    const board = await ann.page.locator('.game-board cg-board').boundingBox();
    if (banner && board) assert.ok(banner.y + banner.height <= board.y + 1, `banner ${JSON.stringify(banner)} board ${JSON.stringify(board)}`);
    await ann.page.locator('.conn-status').waitFor({ state: 'hidden', timeout: 15000 });
    await bob.page.locator('.conn-status').waitFor({ state: 'hidden', timeout: 15000 });

    await clickMove(ann.page, 'g1', 'f3');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'b8', 'c6');
    await waitPly(ann.page, 4);
    assert.deepEqual(await moveList(ann.page), ['e4', 'e5', 'Nf3', 'Nc6']);
    assert.equal(await ann.page.evaluate(() => window.__noReload), true, 'the page was not reloaded');
    await screenshot(ann.page, 'reconnected-after-restart');
  } finally {
    await closeAll(ann, bob);
  }
});

test('a direct challenge by link, correspondence', { timeout: 60000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await ann.page.goto('/');
    await fillSeekForm(ann.page, { variant: 'avalanche', color: 'black', mode: 'correspondence', days: 3, nickname: 'Ann' });
    await press(ann.page, '[data-action="create-challenge"]');
    await ann.page.waitForURL(/\/challenge\/[A-Za-z0-9]{8}$/);
    const link = await ann.page.locator('.challenge-url').inputValue();
    assert.equal(new URL(link).pathname, new URL(ann.page.url()).pathname);
    // a private challenge is not listed in the lobby
    await bob.page.goto('/');
    await bob.page.locator('.seek-list').waitFor();
    assert.equal(await bob.page.locator('.seek', { hasText: 'Ann' }).count(), 0);

    await bob.page.goto(new URL(link).pathname);
    // the page asks the server for the challenge: wait for its text
    await bob.page.locator('.challenge', { hasText: 'Ann challenges you' }).waitFor();
    await press(bob.page, '[data-action="accept-seek"]');
    await bob.page.waitForURL(/\/game\//);
    await ann.page.waitForURL(/\/game\//);
    assert.equal(ann.page.url(), bob.page.url());
    // Ann asked for black
    await ann.page.locator('.game-board .cg-wrap.orientation-black').waitFor();
    await bob.page.locator('.game-board .cg-wrap.orientation-white').waitFor();
    // a correspondence game: days per move, clocks in days and hours
    assert.match(await bob.page.locator('.game-info').textContent(), /3 d\/move/);
    assert.match(await bob.page.locator('.game-side .clock-white').textContent(), /^(3 d 0 h|2 d 23 h)$/);
    // correspondence: a move made on the board waits for its confirmation (setting on by default)
    await clickMove(bob.page, 'g1', 'f3');
    await bob.page.locator('.game-board square.pushable').first().waitFor();
    await clickSquare(bob.page, 'a7');
    await bob.page.locator('[data-action="confirm-move"]').waitFor();
    assert.match(await bob.page.locator('.prompt-slot').textContent(), /Play .*f3,a6\?/);
    await press(bob.page, '.prompt-slot [data-action="cancel-move"]');
    await bob.page.locator('[data-action="confirm-move"]').waitFor({ state: 'detached' });
    await clickMove(bob.page, 'e2', 'e4');
    await bob.page.locator('.game-board square.pushable').first().waitFor();
    await clickSquare(bob.page, 'e7');
    await press(bob.page, '[data-action="confirm-move"]');
    await waitPly(ann.page, 1);
    assert.deepEqual(await moveList(ann.page), ['e4,e6']);
    await screenshot(bob.page, 'challenge-accepted');
  } finally {
    await closeAll(ann, bob);
  }
});
