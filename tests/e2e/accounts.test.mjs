// Accounts in the browser: sign up, the header's name, log out and in (a
// wrong password refused), the account page (password change, log out
// everywhere), a profile with the finished game and the leaderboard page;
// two logged-in players' game on both profiles; a logged-in player's "your
// turn" list on her profile and in another browser, and account names in
// chat linking to the profile. Skipped, saying so, by a
// server that does not serve the accounts API (GET /api/account answers 404).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPlayers, clickMove, closeAll, horizontalOverflow, newPlayer, PHONE, press, screenshot, signUp, startGame, uniqueName, useServerAndBrowser, waitPly } from './lib.mjs';

const env = useServerAndBrowser();

async function accountsServed(t) {
  const res = await fetch(`${env.server.url}/api/account`);
  if (res.status === 404) {
    t.skip('this server does not serve the accounts API yet (GET /api/account: 404)');
    return false;
  }
  return true;
}

test('sign up, log out, log in, change the password, log out everywhere', { timeout: 90000 }, async t => {
  if (!(await accountsServed(t))) return;
  const ann = await newPlayer(env.browser, env.server.url);
  try {
    const page = ann.page;
    const name = uniqueName('ann');
    // a weak password is refused with the reason, in the form
    await page.goto('/signup');
    await page.fill('#account-username', name);
    await page.fill('#account-password', 'password1');
    await page.fill('#account-confirm', 'password1');
    await press(page, '#signup-form button[type=submit]');
    await page.locator('#signup-form [data-role="message"]', { hasText: 'most common' }).waitFor();
    assert.equal(await page.getAttribute('#account-password', 'aria-invalid'), 'true');

    await signUp(page, name, 'a fine passphrase');
    await page.locator('.profile-head h1', { hasText: name }).waitFor();
    await screenshot(page, 'accounts-profile-new');
    const cookies = await ann.context.cookies();
    const session = cookies.find(c => c.name === 'echecs_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie.includes('echecs_session')), false, 'not readable by scripts');
    // a browser logged in before the page kept its note of it ('echecs.session')
    // is still shown logged in: having its player token, it asks once
    await page.evaluate(() => localStorage.removeItem('echecs.session'));
    await page.reload();
    await page.locator('header.site-header [data-role="user"]', { hasText: name }).waitFor();

    // log out from the account page: the header says "Log in"
    await page.goto('/account');
    await press(page, '[data-action="logout"]');
    await page.locator('[data-role="login"]').waitFor();

    // a wrong password, then the right one
    await page.goto('/login');
    await page.fill('#account-username', name.toUpperCase());
    await page.fill('#account-password', 'not the passphrase');
    await press(page, '#login-form button[type=submit]');
    await page.locator('#login-form [data-role="message"]', { hasText: 'Wrong user name or password' }).waitFor();
    await page.fill('#account-password', 'a fine passphrase');
    await press(page, '#login-form button[type=submit]');
    await page.locator('[data-role="user"]', { hasText: name }).waitFor();

    // a second browser logged in too; the password change logs it out
    const other = await newPlayer(env.browser, env.server.url);
    try {
      await other.page.goto('/login');
      await other.page.fill('#account-username', name);
      await other.page.fill('#account-password', 'a fine passphrase');
      await press(other.page, '#login-form button[type=submit]');
      await other.page.locator('[data-role="user"]').waitFor();
      await page.goto('/account');
      await page.fill('#account-old_password', 'a fine passphrase');
      await page.fill('#account-new_password', 'another fine passphrase');
      await press(page, '#password-form button[type=submit]');
      await page.locator('#password-form [data-role="message"]', { hasText: 'Password changed' }).waitFor();
      await other.page.reload();
      await other.page.locator('[data-role="login"]').waitFor();
      await screenshot(page, 'accounts-account-page');
      assert.equal(await horizontalOverflow(page), '', 'no horizontal scroll');
    } finally {
      await closeAll(other);
    }
    await press(page, '[data-action="logout-everywhere"]');
    await page.locator('[data-role="login"]').waitFor();
  } finally {
    await closeAll(ann);
  }
});

test('two logged-in players: the game is on both profiles; the leaderboard page', { timeout: 120000 }, async t => {
  if (!(await accountsServed(t))) return;
  const [ann, bob] = await accountPlayers(env, 'ann', 'bob');
  try {
    const id = await startGame(ann, bob, { variant: 'chess', color: 'white', minutes: 5, increment: 3 });
    // Each move reaches the other side before it answers: the same four moves
    // (not premoves racing the opponent's) however loaded the machine is.
    await clickMove(ann.page, 'f2', 'f3');
    await waitPly(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitPly(ann.page, 2);
    await clickMove(ann.page, 'g2', 'g4');
    await waitPly(bob.page, 3);
    await clickMove(bob.page, 'd8', 'h4');
    await ann.page.locator('.result-banner').waitFor({ state: 'visible' });
    for (const [p, name, result] of [
      [ann.page, ann.account, 'Lost'],
      [bob.page, bob.account, 'Won'],
    ]) {
      await p.goto(`/@/${name}`);
      const row = p.locator(`.profile-game[data-game="${id}"]`);
      await row.waitFor({ timeout: 15000 });
      assert.match(await row.textContent(), new RegExp(result));
      await row.locator('.profile-game-link').click();
      await p.waitForURL(new RegExp(`/game/${id}$`));
    }
    await ann.page.goto(`/@/${ann.account}`);
    await screenshot(ann.page, 'accounts-profile-with-game');
    await ann.page.goto('/leaderboard?variant=alice&speed=rapid');
    await ann.page.locator('.leaderboard h1').waitFor();
    assert.equal(await ann.page.getAttribute('.board-tabs a[href*="variant=alice"][aria-current="page"]', 'aria-current'), 'page');
    await screenshot(ann.page, 'accounts-leaderboard');
    assert.equal(await horizontalOverflow(ann.page), '', 'no horizontal scroll');
    await ann.page.goto('/@/nobody-has-this-name');
    await ann.page.locator('.not-found', { hasText: 'No player has this name' }).waitFor();
  } finally {
    await closeAll(ann, bob);
  }
});

test('logged in: my turn on my profile from another browser; chat shows account names', { timeout: 120000 }, async t => {
  if (!(await accountsServed(t))) return;
  const [ann, bob] = await accountPlayers(env, 'ann', 'bob');
  const laptop = await newPlayer(env.browser, env.server.url);
  try {
    const id = await startGame(ann, bob, { variant: 'chess', mode: 'correspondence' });
    // Ann's other browser: logged in, her profile lists the game waiting for her move
    await laptop.page.goto('/login');
    await laptop.page.fill('#account-username', ann.account);
    await laptop.page.fill('#account-password', 'ann passphrase 1');
    await press(laptop.page, '#login-form button[type=submit]');
    await laptop.page.locator('[data-role="user"]', { hasText: ann.account }).waitFor();
    await laptop.page.goto(`/@/${ann.account}`);
    const entry = laptop.page.locator(`.profile-turns .turn-game[data-game="${id}"]`);
    await entry.waitFor({ timeout: 15000 });
    assert.match(await entry.textContent(), new RegExp(`against ${bob.account}`));
    await laptop.page.waitForFunction(() => /^\(1\) Your move · /.test(document.title));
    await screenshot(laptop.page, 'accounts-profile-your-turn');
    // Ann moves from her first browser: gone from the laptop's list at once
    await clickMove(ann.page, 'e2', 'e4');
    // a correspondence move waits for its confirmation (on by default)
    await press(ann.page, '[data-action="confirm-move"]');
    await laptop.page.locator('.profile-turns .your-turn .empty').waitFor({ timeout: 15000 });
    // somebody else's profile has no "your turn" panel
    await laptop.page.goto(`/@/${bob.account}`);
    await laptop.page.locator('.profile-head h1', { hasText: bob.account }).waitFor();
    assert.equal(await laptop.page.locator('.profile-turns .your-turn').count(), 0);

    // chat: the players are their accounts, linked to their profiles
    const panel = bob.page.locator('.game-side .chat-panel');
    await panel.waitFor();
    if (PHONE) await press(bob.page, panel.locator('.chat-toggle'));
    await panel.locator('.chat-input').fill('hello from an account');
    await panel.locator('.chat-input').press('Enter');
    const annPanel = ann.page.locator('.game-side .chat-panel');
    await annPanel.waitFor();
    if (PHONE) await press(ann.page, annPanel.locator('.chat-toggle'));
    const author = annPanel.locator('.chat-line', { hasText: 'hello from an account' }).locator('a.chat-author.account');
    await author.waitFor({ state: 'attached' });
    assert.equal(await author.textContent(), bob.account);
    assert.equal(await author.getAttribute('href'), `/@/${bob.account}`);
    assert.deepEqual([...ann.page.errors, ...bob.page.errors, ...laptop.page.errors], []);
  } finally {
    await closeAll(ann, bob, laptop);
  }
});
