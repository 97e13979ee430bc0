// Languages: French from the browser's preferences, switchable to English and
// back, remembered, and applied to every text of the game page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeAll, newPlayer, playComputer, press, screenshot, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

test('language: browser default, switch, persistence, game texts', { timeout: 90000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    await page.goto('/');
    await page.locator('.lobby').waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    assert.match(await page.locator('.create h2').textContent(), /Jouer contre une personne/);
    assert.match(await page.locator('.computer-form h2').textContent(), /Jouer contre l’ordinateur/);
    assert.match(await page.locator('[data-action="play-computer"]').textContent(), /Jouer contre l’ordinateur/);
    // the sound switch is labelled too, on for a new player, and remembers the player's choice
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Son activé');
    await press(page, '[data-action="sound"]');
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Son coupé');

    await press(page, '[data-lang="en"]');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    assert.match(await page.locator('.create h2').textContent(), /Play a person/);
    assert.match(await page.locator('.site-nav').textContent(), /Analysis board/);
    await page.reload();
    await page.locator('.lobby').waitFor();
    assert.match(await page.locator('.create h2').textContent(), /Play a person/, 'the choice is remembered');
    assert.equal(await page.locator('[data-action="sound"]').getAttribute('aria-label'), 'Sound off', 'switched off: off after a reload');

    await press(page, '[data-lang="fr"]');
    // the header leads to play; the rules are one click away and follow the language
    assert.equal(await page.locator('.site-nav a[data-nav="lobby"]').getAttribute('href'), '/');
    await press(page, '[data-nav="rules"]');
    await press(page, '.rules-tabs a[href="/rules/alice"]');
    await page.locator('.rules h1').waitFor();
    assert.match(await page.locator('.rules h1').textContent(), /Règles · Échecs Alice/);
    assert.match(await page.locator('.board-label').first().textContent(), /Échiquier 1/);

    // a game against the computer, in French, resigned: result and reason in French, then in English
    await playComputer(page, { variant: 'alice', mode: 'unlimited', color: 'white' });
    assert.match(await page.locator('.game-status').textContent(), /À vous de jouer/);
    assert.match(await page.locator('.board-label').nth(1).textContent(), /Échiquier 2/);
    await press(page, '[data-action="resign"]');
    assert.match(await page.locator('[data-action="resign"]').textContent(), /Vraiment abandonner/);
    await press(page, '[data-action="resign"]');
    const banner = page.locator('.result-banner');
    await banner.waitFor({ state: 'visible' });
    assert.match(await banner.textContent(), /Victoire des Noirs.*par abandon/);
    await press(page, '[data-lang="en"]');
    await page.locator('.result-banner').waitFor({ state: 'visible' });
    await page.waitForFunction(() => /Black wins/.test(document.querySelector('.result-banner')?.textContent ?? ''));
    assert.match(await page.locator('.result-banner').textContent(), /Black wins.*by resignation/);
    await press(page, '[data-lang="fr"]');
    await page.waitForFunction(() => /Victoire des Noirs/.test(document.querySelector('.result-banner')?.textContent ?? ''));
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'language-french');
  } finally {
    await closeAll(fr);
  }
});
