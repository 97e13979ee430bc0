// The analysis board's continuous analysis: switched on, the depth rises and
// two lines with distinct first moves are shown with an evaluation bar; a
// move on the board restarts it on the new position; a line clicked is
// played onto the board; hiding the tab stops the stream (nothing more on
// the page's socket while a second stream on the same position, the test's
// clock, goes one depth deeper than the stopped one had gone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickMove, closeAll, newPlayer, press, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

const depth = page => page.locator('.live-status').textContent().then(s => Number((s.match(/\d+/) ?? ['0'])[0]));

test('analysis board: continuous analysis with two lines', { timeout: 240000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    // count the analysis messages each socket receives, keep what the page sends
    await page.addInitScript(() => {
      window.__analysis = 0;
      window.__sockets = [];
      window.__sent = [];
      const Orig = window.WebSocket;
      window.WebSocket = class extends Orig {
        constructor(...a) {
          super(...a);
          this.analysis = 0;
          this.depth = 0;
          this.final = false;
          window.__sockets.push(this);
          this.addEventListener('message', e => {
            if (!String(e.data).includes('"type":"analysis"')) return;
            const m = JSON.parse(e.data);
            this.analysis += 1;
            this.depth = m.depth;
            this.final = this.final || m.final;
            if (this === window.__sockets[0]) window.__analysis += 1;
          });
        }
        send(data) {
          window.__sent.push(String(data));
          super.send(data);
        }
      };
    });
    await page.goto('/analysis?variant=chess');
    await page.locator('.analysis-page .board-wrap[data-board="a"] piece.white.pawn').first().waitFor();
    await press(page, '[data-action="analyse-live"]');
    await page.locator('.live-lines .live-line[data-multipv="2"]').waitFor({ timeout: 30000 });
    await page.waitForFunction(() => /\d+/.test(document.querySelector('.live-status')?.textContent ?? '') &&
      Number(document.querySelector('.live-status').textContent.match(/\d+/)[0]) >= 5, null, { timeout: 30000 });
    const first = await page.locator('.live-line').evaluateAll(ls => ls.map(l => l.getAttribute('data-move')));
    assert.equal(first.length, 2);
    assert.notEqual(first[0], first[1]);
    assert.equal(await page.locator('.eval-bar').isVisible(), true);
    assert.match(await page.locator('.live-line').first().textContent(), /^[+-]\d+\.\d\d 1\./);

    // a move on the board: the analysis starts again on the new position (Black to move)
    await page.evaluate(() => document.querySelector('.game-board').scrollIntoView({ block: 'center' }));
    await clickMove(page, 'e2', 'e4');
    await page.locator('.analysis-page .move-list .move').first().waitFor();
    await page.waitForFunction(() => /^[-+#]?[-\d.]+ 1…/.test(document.querySelector('.live-line')?.textContent ?? ''), null, { timeout: 30000 });

    // a line clicked is played onto the board
    const line = page.locator('.live-line').first();
    const plies = (await line.getAttribute('data-move')) ? 1 : 0;
    assert.equal(plies, 1);
    await press(page, line);
    await page.waitForFunction(() => document.querySelectorAll('.analysis-page .move-list .move').length >= 2);

    // the tab hidden: the stream stops (no message after the pause)
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // the page says analyse_stop; a ping sent after it is answered once the
    // server has stopped the stream: from then on, nothing on that socket
    await page.waitForFunction(() => window.__sent.some(s => s.includes('"analyse_stop"')), null, { timeout: 10000 });
    const stopped = await page.evaluate(() => new Promise((resolve, reject) => {
      const ws = window.__sockets[0];
      const timer = setTimeout(() => reject(new Error('no pong within 20 s after analyse_stop')), 20000);
      ws.addEventListener('message', function onPong(e) {
        const m = JSON.parse(e.data);
        if (m.type !== 'pong' || m.t !== 'after-stop') return;
        clearTimeout(timer);
        ws.removeEventListener('message', onPong);
        resolve({ count: window.__analysis, depth: ws.depth });
      });
      ws.send(JSON.stringify({ type: 'ping', t: 'after-stop' }));
    }));
    assert.equal(await page.evaluate(() => window.__sockets.length), 1);
    // the clock: a second stream on a socket of its own, on the very position
    // the stopped one analysed, until it is one depth deeper than the stopped
    // one was: a stream that went on, its table warm, would have sent that
    // depth first. Bounded: a stream ends by itself after its search cap
    // (StreamLimits::max_ms, 60 s), with `final`.
    await page.evaluate(() => {
      const last = window.__sent.filter(s => s.includes('"type":"analyse"')).at(-1);
      const c = new WebSocket(window.__sockets[0].url);
      c.errors = [];
      c.addEventListener('message', e => { const m = JSON.parse(e.data); if (m.type === 'error') c.errors.push(m); });
      c.addEventListener('open', () => c.send(JSON.stringify({ ...JSON.parse(last), id: 1 })));
    });
    const clock = await page.waitForFunction(d => {
      const c = window.__sockets[1];
      if (c && c.errors.length) return { error: c.errors[0] };
      return c && (c.final || c.depth >= d + 1) && { depth: c.depth, final: c.final };
    }, stopped.depth, { timeout: 120000, polling: 100 }).then(h => h.jsonValue());
    assert.equal(clock.error, undefined, `the second stream was refused: ${JSON.stringify(clock.error)}`);
    assert.equal(await page.evaluate(() => window.__analysis), stopped.count, 'an analysis message after the stop');
    await page.evaluate(() => window.__sockets[1].close());
    const before = stopped.count;
    // shown again: it goes on
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForFunction(n => window.__analysis > n, before, { timeout: 20000 });
    assert.ok((await depth(page)) >= 1);
    assert.deepEqual(page.errors, []);
  } finally {
    await closeAll(ann);
  }
});
