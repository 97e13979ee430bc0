// Languages: French from the browser's preferences, switchable to English and
// back, remembered, and applied to every text of the game page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, screenshot, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

test('language: browser default, switch, persistence, game texts', { timeout: 90000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    await page.goto('/');
    await page.locator('.lobby').waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    assert.match(await page.locator('.create h2').textContent(), /Créer une partie/);
    assert.match(await page.locator('[data-action="play-computer"]').textContent(), /Jouer contre l’ordinateur/);
    // the sound switch is labelled too, and remembers its state
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Son coupé');
    await page.click('[data-action="sound"]');
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Son activé');

    await page.click('[data-lang="en"]');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.match(await page.locator('.create h2').textContent(), /Create a game/);
    assert.match(await page.locator('.site-nav').textContent(), /Analysis board/);
    await page.reload();
    await page.locator('.lobby').waitFor();
    assert.match(await page.locator('.create h2').textContent(), /Create a game/, 'the choice is remembered');
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Sound on');

    await page.click('[data-lang="fr"]');
    // rules pages follow the language
    await page.click('[data-nav="rules-alice"]');
    await page.locator('.rules h1').waitFor();
    assert.match(await page.locator('.rules h1').textContent(), /Règles · Échecs Alice/);
    assert.match(await page.locator('.board-label').first().textContent(), /Échiquier 1/);

    // a game against the computer, in French, resigned: result and reason in French, then in English
    await page.goto('/');
    await page.selectOption('select[name="variant"]', 'alice');
    await page.selectOption('select[name="mode"]', 'unlimited');
    await page.selectOption('select[name="color"]', 'white');
    await page.click('[data-action="play-computer"]');
    await page.waitForURL(/\/game\//);
    await page.locator('.game-board cg-board').first().waitFor();
    assert.match(await page.locator('.game-status').textContent(), /À vous de jouer/);
    assert.match(await page.locator('.board-label').nth(1).textContent(), /Échiquier 2/);
    await page.click('[data-action="resign"]');
    assert.match(await page.locator('[data-action="resign"]').textContent(), /Vraiment abandonner/);
    await page.click('[data-action="resign"]');
    const banner = page.locator('.result-banner');
    await banner.waitFor({ state: 'visible' });
    assert.match(await banner.textContent(), /Victoire des Noirs.*par abandon/);
    await page.click('[data-lang="en"]');
    await page.locator('.result-banner').waitFor({ state: 'visible' });
    await page.waitForFunction(() => /Black wins/.test(document.querySelector('.result-banner')?.textContent ?? ''));
    assert.match(await page.locator('.result-banner').textContent(), /Black wins.*by resignation/);
    await page.click('[data-lang="fr"]');
    await page.waitForFunction(() => /Victoire des Noirs/.test(document.querySelector('.result-banner')?.textContent ?? ''));
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'language-french');
  } finally {
    await closeAll(fr);
  }
});
