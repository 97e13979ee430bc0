// The French interface reads and accepts French notation: `Cf3` plays Nf3,
// figurines by default and French letters on request, a typed Avalanche first
// part asks for its push; the server's errors are shown in French.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickSquare, closeAll, fillSeekForm, moveList, newPlayer, playComputer, press, screenshot, shownMoves, useServerAndBrowser, waitPly,
} from './lib.mjs';

const env = useServerAndBrowser();

async function type(page, text) {
  await page.fill('.san-input', text);
  await page.press('.san-input', 'Enter');
}

test('French: server errors translated, Cf3 plays Nf3, figurines then French letters', { timeout: 90000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    // a seek the server refuses (0 minutes and 0 increment): a French sentence, not the server's English
    await page.goto('/');
    await fillSeekForm(page, { variant: 'chess', minutes: 0, increment: 0 });
    await press(page, '[data-action="create-seek"]');
    const msg = page.locator('.create .form-msg');
    await page.waitForFunction(() => (document.querySelector('.create .form-msg')?.textContent ?? '') !== '');
    const text = await msg.textContent();
    assert.match(text, /^(Les minutes et l’incrément|Le serveur a refusé cette demande)/, text);

    await playComputer(page, { variant: 'chess', color: 'white', level: '1' });
    assert.match(await page.locator('.san-input').getAttribute('placeholder'), /Cf3/);
    await type(page, 'Xf3');
    assert.match(await page.locator('.input-msg').textContent(), /Coup illégal : Xf3/);
    await type(page, 'Cf3');
    await waitPly(page, 2, 20000);
    assert.equal((await moveList(page))[0], 'Nf3');
    assert.equal((await shownMoves(page))[0], '♘f3', 'figurines by default');
    // the settings: letters of the language, remembered
    await press(page, '[data-action="settings"]');
    await page.locator('dialog.settings-dialog').waitFor();
    await page.locator('input[data-setting="notation"][value="letters"]').check();
    await press(page, '[data-action="close-settings"]');
    await page.waitForFunction(() => document.querySelector('.game-side .move-list .move[data-ply="1"]')?.textContent === 'Cf3');
    await type(page, 'Cc3');
    await waitPly(page, 4, 20000);
    assert.equal((await moveList(page))[2], 'Nc3');
    assert.equal((await shownMoves(page))[2], 'Cc3');
    await page.reload();
    await waitPly(page, 4);
    assert.equal((await shownMoves(page))[0], 'Cf3', 'the notation setting is remembered');
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'french-notation');
  } finally {
    await closeAll(fr);
  }
});

test('French, Avalanche: the first part typed alone (Cf3) is played and asks for the push', { timeout: 90000 }, async () => {
  const fr = await newPlayer(env.browser, env.server.url, 'fr-FR');
  try {
    const page = fr.page;
    await playComputer(page, { variant: 'avalanche', color: 'white', level: '1' });
    await type(page, 'cf3');
    await page.locator('.prompt-slot.active', { hasText: 'Poussez' }).waitFor();
    // the board draws its marks on the next frame, after the prompt: wait for them
    const pushable = page.locator('.game-board square.pushable');
    await pushable.first().waitFor();
    assert.equal(await pushable.count(), 8);
    await clickSquare(page, 'e7');
    await waitPly(page, 1);
    assert.equal((await moveList(page))[0], 'Nf3,e6');
    assert.equal(page.errors.length, 0, page.errors.join('\n'));
    await screenshot(page, 'french-avalanche-typed');
  } finally {
    await closeAll(fr);
  }
});
