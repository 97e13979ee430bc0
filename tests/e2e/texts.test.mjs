// Texts that count (issue 28): one thing in the singular, several in the
// plural, in English and in French; the count of games read from PGN is
// news, not an error (not in the error colour). Desktop pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, press, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();
const WAIT = 15000;

const game = (white, moves) => `[Event "Casual"]\n[White "${white}"]\n[Black "Bob"]\n[Result "*"]\n\n${moves} *\n`;

/** Reads `pgn` on the analysis board; returns the message under the reader and its colour against the error colour. */
async function readPgn(page, pgn, text) {
  await page.fill('textarea[name="pgn-input"]', pgn);
  await press(page, '[data-action="read-pgn"]');
  const msg = page.locator('.pgn-import .form-msg', { hasText: text });
  await msg.waitFor({ timeout: WAIT });
  return msg.evaluate(e => {
    const probe = document.createElement('div');
    probe.className = 'form-msg';
    e.parentElement.appendChild(probe);
    const error = getComputedStyle(probe).color;
    probe.remove();
    return { text: e.textContent, color: getComputedStyle(e).color, error };
  });
}

test('counts: singular and plural in both languages; games read are not an error', { timeout: 60000 }, async () => {
  const en = await newPlayer(env.browser, env.server.url, 'en-US');
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    for (const [p, one, two] of [
      [en.page, '1 game read.', '2 games read.'],
      [fr.page, '1 partie lue.', '2 parties lues.'],
    ]) {
      await p.goto('/analysis');
      await p.locator('.pgn-import summary').click();
      const a = await readPgn(p, game('Ann', '1. e4 e5'), one);
      assert.equal(a.text, one);
      assert.notEqual(a.color, a.error, `"${one}" is not in the error colour`);
      const b = await readPgn(p, game('Ann', '1. e4 e5') + '\n' + game('Cy', '1. d4'), two);
      assert.equal(b.text, two);
      assert.notEqual(b.color, b.error);
    }
    // the editor: a position with one legal move (the king takes the queen), then the start position
    const judged = async (p, fen, text) => {
      await p.goto(`/editor?fen=${encodeURIComponent(fen)}`);
      await p.locator('.editor-verdict[data-state="legal"]', { hasText: text }).waitFor({ timeout: WAIT });
      return p.locator('.editor-verdict').textContent();
    };
    assert.equal(await judged(en.page, 'k7/8/8/8/8/8/1q6/K7 w - - 0 1', 'legal move'), 'A legal position: 1 legal move.');
    assert.equal(await judged(fr.page, 'k7/8/8/8/8/8/1q6/K7 w - - 0 1', 'coup légal'), 'Position légale : 1 coup légal.');
    assert.equal(await judged(en.page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'legal moves'), 'A legal position: 20 legal moves.');
    assert.deepEqual([...en.page.errors, ...fr.page.errors], []);
  } finally {
    await closeAll(en, fr);
  }
});
