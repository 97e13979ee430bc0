// e2e sizes: phone
// Playing on a phone (390x844, touch; issue 28): the move strip under the
// board follows the game and the moves stepped through; once the game is
// over, the result and the next actions (rematch, a rematch offered, a new
// game, the analysis) are in sight under the board without scrolling, and so
// is the claim when the opponent has left. The board editor and the problems
// page put their fields before the buttons that act on them. Runs in the
// phone pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PHONE, clickMove, closeAll, horizontalOverflow, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();
const WAIT = 15000;

// sixteen plies of an Italian game, and two more
const MOVES = [
  ['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'c4'], ['g8', 'f6'], ['d2', 'd3'], ['f8', 'c5'],
  ['c2', 'c3'], ['d7', 'd6'], ['b1', 'd2'], ['a7', 'a6'], ['a2', 'a4'], ['h7', 'h6'], ['h2', 'h3'], ['c8', 'e6'],
  ['b2', 'b4'], ['c5', 'a7'],
];

/** Where an element is against the viewport the suite set, and whether the page is scrolled. */
async function inSight(page, selector) {
  const { width, height } = page.viewportSize();
  const loc = page.locator(selector).first();
  await loc.waitFor({ state: 'visible', timeout: WAIT });
  const r = await loc.evaluate(e => {
    const b = e.getBoundingClientRect();
    return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, scrollY: window.scrollY };
  });
  const inside = r.left >= -1 && r.top >= -1 && r.right <= width + 1 && r.bottom <= height + 1 && r.scrollY === 0;
  return { inside, what: `${selector} at ${JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)])))} in ${width}x${height}` };
}

async function assertInSight(page, selector) {
  const p = await inSight(page, selector);
  assert.ok(p.inside, `not in sight without scrolling: ${p.what}`);
}

/** The move shown (ply) is inside the strip's visible part, left to right. */
async function assertMoveInStrip(page, ply) {
  const cell = page.locator(`.game-side .move-list .move[data-ply="${ply}"]`);
  await cell.waitFor({ timeout: WAIT });
  const r = await page.evaluate(p => {
    const strip = document.querySelector('.game-side .move-list').getBoundingClientRect();
    const c = document.querySelector(`.game-side .move-list .move[data-ply="${p}"]`);
    const b = c.getBoundingClientRect();
    return { strip: [strip.left, strip.right], move: [b.left, b.right], current: c.classList.contains('current') };
  }, ply);
  assert.ok(r.current, `move ${ply} is the current one`);
  assert.ok(r.move[0] >= r.strip[0] - 1 && r.move[1] <= r.strip[1] + 1, `move ${ply} at x ${r.move.map(Math.round)} outside the strip's ${r.strip.map(Math.round)}`);
}

test('phone: the move strip follows the game and the moves stepped through; the end of the game in sight', { skip: !PHONE && 'phone pass only', timeout: 150000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white', mode: 'unlimited' });
    for (let i = 0; i < 16; i++) {
      const [mover, other] = i % 2 === 0 ? [ann, bob] : [bob, ann];
      await clickMove(mover.page, ...MOVES[i]);
      await waitPly(other.page, i + 1);
      await waitPly(mover.page, i + 1);
      // the strip is a single row: the newest move is in it on both phones
      if (i >= 5) for (const p of [ann.page, bob.page]) await assertMoveInStrip(p, i + 1);
    }
    const strip = await ann.page.locator('.game-side .move-list').boundingBox();
    assert.ok(strip.height < 80, `the moves are one strip: ${strip.height} px high`);
    // stepping back to the first move brings the strip back to its start, and forward again
    await press(ann.page, '[data-action="first"]');
    await press(ann.page, '[data-action="next"]');
    await assertMoveInStrip(ann.page, 1);
    await press(ann.page, '[data-action="next"]');
    await assertMoveInStrip(ann.page, 2);
    await press(ann.page, '[data-action="last"]');
    await assertMoveInStrip(ann.page, 16);
    for (let k = 0; k < 8; k++) await press(ann.page, '[data-action="prev"]');
    await assertMoveInStrip(ann.page, 8);
    await press(ann.page, '[data-action="last"]');
    await assertMoveInStrip(ann.page, 16);

    // the end: Ann resigns; the result and the next actions are under the board, in sight
    await press(ann.page, '[data-action="resign"]');
    await press(ann.page, '[data-action="resign"]');
    for (const p of [ann.page, bob.page]) {
      await p.locator('.result-banner[data-result="0-1"]').waitFor({ timeout: WAIT });
      for (const sel of ['.result-banner', '[data-action="rematch-offer"]', '[data-action="new-game"]', '[data-action="analyse"]']) await assertInSight(p, sel);
      assert.equal(await horizontalOverflow(p), '', 'no horizontal scroll');
    }
    await screenshot(ann.page, 'phone-game-over');
    // an incoming rematch offer, in sight too
    await press(bob.page, '[data-action="rematch-offer"]');
    for (const sel of ['.offer', '[data-action="rematch-accept"]', '[data-action="rematch-decline"]']) await assertInSight(ann.page, sel);
    await screenshot(ann.page, 'phone-rematch-offered');
    assert.deepEqual([...ann.page.errors, ...bob.page.errors], []);
  } finally {
    await closeAll(ann, bob);
  }
});

test('phone: the claim of a game whose opponent left is in sight', { skip: !PHONE && 'phone pass only', timeout: 120000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 10 });
    for (let i = 0; i < 4; i++) {
      const [mover, other] = i % 2 === 0 ? [ann, bob] : [bob, ann];
      await clickMove(mover.page, ...MOVES[i]);
      await waitPly(other.page, i + 1);
    }
    // Bob leaves: Ann is told so, then (the server's claim delay, 30 s by default) may claim the game
    await bob.context.close();
    await assertInSight(ann.page, '.offer.claim');
    await ann.page.locator('[data-action="claim-victory"]').waitFor({ timeout: 60000 });
    for (const sel of ['.offer.claim', '[data-action="claim-victory"]', '[data-action="claim-draw"]']) await assertInSight(ann.page, sel);
    assert.equal(await horizontalOverflow(ann.page), '', 'no horizontal scroll');
    await screenshot(ann.page, 'phone-claim');
    await press(ann.page, '[data-action="claim-victory"]');
    // the result, or the error the server answered (named in the failure)
    await ann.page.locator('.result-banner[data-result="1-0"], .input-msg.error').first().waitFor({ timeout: WAIT });
    assert.equal(await ann.page.locator('.input-msg.error').count(), 0, `the claim answered: ${await ann.page.locator('.input-msg').textContent()}`);
    await ann.page.locator('.result-banner[data-result="1-0"]').waitFor({ timeout: WAIT });
    for (const sel of ['.result-banner', '[data-action="analyse"]']) await assertInSight(ann.page, sel);
    assert.deepEqual(ann.page.errors, []);
  } finally {
    await closeAll(ann, bob);
  }
});

/** The top of each element, in page coordinates (the page scrolled to its top). */
async function tops(page, selectors) {
  const out = {};
  for (const sel of selectors) {
    const loc = page.locator(sel).first();
    await loc.waitFor({ state: 'visible', timeout: WAIT });
    out[sel] = await loc.evaluate(e => e.getBoundingClientRect().top + window.scrollY);
  }
  return out;
}

test('phone: the problems and editor pages put their fields before the buttons that act on them', { skip: !PHONE && 'phone pass only', timeout: 60000 }, async () => {
  const p = await newPlayer(env.browser, env.server.url);
  try {
    const page = p.page;
    await page.goto('/editor');
    await page.locator('.editor-page .editor-verdict[data-state="legal"]').waitFor({ timeout: WAIT });
    const fields = ['.editor-page h1', '.editor-page select[name="variant"]', '.editor-page select[name="turn"]', '.editor-page fieldset.castling', '.editor-page input[name="ep"]', '.editor-page input[name="fen"]'];
    const buttons = ['.editor-page [data-action="analyse"]', '.editor-page [data-action="to-problems"]', '.editor-page [data-action="play-computer"]', '.editor-page [data-action="challenge-friend"]'];
    let y = await tops(page, [...fields, ...buttons]);
    for (const f of fields) for (const b of buttons) assert.ok(y[f] < y[b], `editor: ${f} (y ${Math.round(y[f])}) comes before ${b} (y ${Math.round(y[b])})`);
    assert.equal(await horizontalOverflow(page), '', 'editor: no horizontal scroll');
    await screenshot(page, 'phone-editor-fields');

    await page.goto('/problems');
    const pFields = ['.problems-page h1', '.problems-page select[name="variant"]', '.problems-page .field input', '.problems-page .controls.checks', '.problems-page .game-side .fen-row input'];
    const pButtons = ['.problems-page [data-action="solve"]'];
    y = await tops(page, [...pFields, ...pButtons]);
    for (const f of pFields) for (const b of pButtons) assert.ok(y[f] < y[b], `problems: ${f} (y ${Math.round(y[f])}) comes before ${b} (y ${Math.round(y[b])})`);
    assert.equal(await horizontalOverflow(page), '', 'problems: no horizontal scroll');
    await screenshot(page, 'phone-problems-fields');
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(p);
  }
});
