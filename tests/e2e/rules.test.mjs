// The rules pages: every diagram is a legal position of its game (each FEN
// shown is checked by the server's rules core), and from a live game the rules
// open over the game without leaving it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEVICES, clickMove, closeAll, horizontalOverflow, newPlayer, playComputer, press, screenshot, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

test('every rules diagram, in both languages, is a legal position', { timeout: 60000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url);
  try {
    let checked = 0;
    for (const lang of ['en', 'fr'])
      for (const variant of ['chess', 'alice', 'avalanche']) {
        await p.page.goto(`/rules/${variant}`);
        await p.page.evaluate(l => localStorage.setItem('echecs.lang', l), lang);
        await p.page.reload();
        await p.page.locator('.rules figure.diagram').first().waitFor();
        const fens = await p.page.locator('.rules figure.diagram').evaluateAll(f => f.map(x => x.getAttribute('data-fen')));
        assert.ok(fens.length >= 2, `${variant} ${lang} has diagrams`);
        for (const fen of fens) {
          const r = await fetch(`${env.server.url}/api/analysis`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ variant, fen, moves: [] }),
          });
          const body = await r.json();
          assert.equal(r.status, 200, `${variant} diagram ${fen}: ${JSON.stringify(body)}`);
          checked++;
        }
      }
    console.log(`rules diagrams checked by the core: ${checked}`);
    await screenshot(p.page, 'rules-avalanche-fr');
  } finally {
    await closeAll(p);
  }
});

// A board's first position is drawn, not animated from chessground's default
// (the initial position): on a slow phone, the pieces flying from squares of a
// board not yet measured once widened Alice's rules page for good (6 of 10
// loads at a CPU slowed ten times, the stop-33 CI failure). The slowing is the
// browser's own (DevTools' CPU throttling), so the test does not depend on how
// busy the machine is.
test('a slow phone: the Alice rules page has no horizontal scroll, load after load', { timeout: 90000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url, 'en-US', DEVICES.phone);
  try {
    const cdp = await p.context.newCDPSession(p.page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
    for (let i = 1; i <= 6; i++) {
      await p.page.goto('/rules/alice', { timeout: 30000 });
      await p.page.locator('.rules[data-variant="alice"] figure.diagram cg-board').first().waitFor({ state: 'visible', timeout: 30000 });
      assert.equal(await horizontalOverflow(p.page), '', `load ${i}: horizontal scroll`);
    }
  } finally {
    await closeAll(p);
  }
});

test('the rules open over a live game and close back to it', { timeout: 60000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url);
  try {
    const page = p.page;
    await playComputer(page, { variant: 'avalanche', color: 'white', level: '1' });
    const url = page.url();
    await press(page, '[data-action="rules"]');
    const dialog = page.locator('dialog.rules-dialog[open]');
    await dialog.waitFor();
    await dialog.locator('figure.diagram').first().waitFor();
    assert.match(await dialog.locator('h2').first().textContent(), /Avalanche/);
    assert.equal(page.url(), url, 'the game page stays');
    await screenshot(page, 'rules-dialog-over-game');
    await press(page, '[data-action="close-rules"]');
    await dialog.waitFor({ state: 'detached' });
    // the game goes on
    await clickMove(page, 'g1', 'f3');
    await page.locator('.game-board square.pushable').first().waitFor();
    await press(page, '.prompt-slot [data-action="cancel-move"]');
    await page.locator('.game-board square.pushable').first().waitFor({ state: 'detached' });
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
  } finally {
    await closeAll(p);
  }
});
