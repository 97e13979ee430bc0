// Fair play: no engine help for a game in progress, for its players and its
// spectators; once it is over, the analysis is one click away and receives
// the whole game (initial position and every move).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, screenshot, startGame, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

async function post(path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers['X-Echecs-Token'] = token;
  const r = await fetch(`${env.server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => null) };
}

test('fair play: no analysis during the game, the whole game analysed after it', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  const carol = await newPlayer(env.browser, env.server.url);
  try {
    const id = await startGame(ann, bob, { variant: 'chess', color: 'white' });
    await clickMove(ann.page, 'e2', 'e4');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await carol.page.goto(`/game/${id}`);
    await waitPly(carol.page, 2);
    for (const p of [ann.page, bob.page, carol.page]) {
      assert.equal(await p.locator('[data-action="analyse"]').count(), 0, 'no analysis link while the game is played');
      assert.equal(await p.locator('a[href^="/analysis"]:not([data-nav])').count(), 0);
      await p.locator('.export .fair-play').waitFor();
    }
    // the analysis board refuses a game in progress: no board moves, no engine
    await carol.page.goto(`/analysis?game=${id}`);
    await carol.page.locator('.game-note.fair-play', { hasText: 'still being played' }).waitFor();
    assert.equal(await carol.page.locator('[data-action="evaluate"]').isDisabled(), true);
    assert.equal(await carol.page.locator('.analysis-page .move-list .move').count(), 0);

    // the server's own refusal, where it tells why (servers that send error reasons)
    const token = await ann.page.evaluate(() => localStorage.getItem('echecs.token'));
    const fen = (await (await fetch(`${env.server.url}/api/games/${id}`)).json()).fen;
    const probe = await post('/api/seeks', { variant: 'chess', time: { kind: 'realtime', minutes: 0, increment: 0 }, color: 'white' }, token);
    if (probe.body?.error?.reason) {
      const r = await post('/api/analysis/eval', { variant: 'chess', fen, movetime_ms: 50 }, token);
      assert.ok(r.status >= 400, `the server refuses the live position to a player: ${r.status}`);
      assert.equal(r.body?.error?.reason, 'live_game_analysis');
    }

    // the game ends: analysis one click away, with the whole game
    await press(ann.page, '[data-action="resign"]');
    await press(ann.page, '[data-action="resign"]');
    await ann.page.locator('.result-banner').waitFor({ state: 'visible' });
    await carol.page.goto(`/game/${id}`);
    await carol.page.locator('[data-action="analyse"]').waitFor();
    await press(ann.page, '[data-action="analyse"]');
    await ann.page.waitForURL(/\/analysis\?game=/);
    await ann.page.locator('.analysis-page .move-list .move[data-ply="2"]').waitFor();
    assert.deepEqual(
      await ann.page.locator('.analysis-page .move-list .move').evaluateAll(c => c.map(x => x.getAttribute('data-san'))),
      ['e4', 'e5'],
    );
    assert.match(await ann.page.locator('.analysis-page .fen-field[readonly]').inputValue(), /^rnbqkbnr\/pppp1ppp\/8\/4p3\/4P3\//);
    // step back through the game on the analysis board, then evaluate
    await press(ann.page, '.analysis-page [data-action="prev"]');
    await ann.page.locator('.analysis-page .move-list .move.current[data-ply="1"]').waitFor();
    await press(ann.page, '[data-action="evaluate"]');
    await ann.page.locator('.eval', { hasText: /Evaluation|Mate/ }).waitFor({ timeout: 15000 });
    assert.equal(ann.page.errors.length + bob.page.errors.length + carol.page.errors.length, 0);
    await screenshot(ann.page, 'fair-play-analysis-after');
  } finally {
    await closeAll(ann, bob, carol);
  }
});
